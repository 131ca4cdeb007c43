//! Derived state of the document, each a cache keyed by [`DocKey`] (plus what else it depends on): the
//! problems list, the probe's hits and the Compare tab's rows.

use std::collections::HashSet;

use crate::editor::analysis::compare::CompareKey;
use crate::editor::app::*;
use crate::editor::document::DocKey;
use crate::level::{ObjectId, Problem, Severity};

#[derive(Default)]
pub(crate) struct Problems {
    pub(crate) key: Option<DocKey>,
    pub(crate) list: Vec<Problem>,
    pub(crate) faulty: HashSet<ObjectId>,
    pub(crate) walker_faulty: bool,
    /// The reachability map whose `must_reach` problems are in the list: its document key and generation.
    pub(crate) reach: Option<(DocKey, u64)>,
}

impl EditorApp {
    pub(crate) fn refresh_problems(&mut self) {
        // While dragging, the level changes every frame: validate when the gesture ends.
        let key = self.doc.key();
        // The map of this revision, once made: its must_reach problems join the list.
        let map = self
            .reach
            .shown()
            .filter(|b| b.key == key)
            .and_then(|b| Some((b.generation, &b.outcome.as_ref().ok()?.map)));
        let reach = map.map(|(generation, _)| (key, generation));
        if (self.problems.key == Some(key) && self.problems.reach == reach)
            || (self.problems.key.is_some() && self.tools.gesture.is_some())
        {
            return;
        }
        let mut list = self.doc.level().validate();
        if let Some((_, map)) = map {
            list.extend(
                self.doc
                    .level()
                    .reach_problems(map)
                    .into_iter()
                    .map(|p| p.problem),
            );
        }
        list.sort_by_key(|p| p.severity);
        self.problems.faulty = list
            .iter()
            .filter(|p| p.severity == Severity::Error)
            .filter_map(|p| p.object)
            .collect();
        self.problems.walker_faulty = list
            .iter()
            .any(|p| p.severity == Severity::Error && p.field.starts_with("walker"));
        self.problems.list = list;
        self.problems.key = Some(key);
        self.problems.reach = reach;
    }

    pub(crate) fn refresh_compare(&mut self) {
        let key: CompareKey = (
            self.doc.key(),
            self.probe.ray.map(|(r, t)| (r.origin, r.dir, t)),
            self.debug.debugger.as_ref().map(|d| d.cursor()),
        );
        if self
            .probe
            .compare
            .as_ref()
            .is_some_and(|(k, _, _)| *k == key)
        {
            return;
        }
        let tris = self.probe.ray.map(|(ray, max_t)| {
            crate::editor::analysis::compare::triangles(self.doc.level(), &ray, max_t)
        });
        let dt = self.doc.level().simulation.dt;
        let sweeps = match &self.debug.debugger {
            Some(d) => Some(crate::editor::analysis::compare::sweeps(d.world(), dt)),
            None => crate::sim::World::from_level(self.doc.level())
                .ok()
                .map(|w| crate::editor::analysis::compare::sweeps(&w, dt)),
        };
        self.probe.compare = Some((key, tris, sweeps));
    }

    pub(crate) fn refresh_probe(&mut self) {
        if self.probe.flat
            && let Some((ray, _)) = &mut self.probe.ray
            && self.probe.height.is_finite()
        {
            ray.origin.y = self.probe.height;
        }
        let Some((ray, max_t)) = self.probe.ray else {
            self.probe.result = None;
            return;
        };
        let key = (ray.origin, ray.dir, max_t, self.doc.key());
        if self.probe.result.as_ref().is_some_and(|(k, _)| *k == key) {
            return;
        }
        let scene = self.level_scene();
        self.probe.result = Some((
            key,
            crate::editor::analysis::probe::cast_in(self.doc.level(), &scene, &ray, max_t),
        ));
    }

    /// The level's runtime scene at this revision (built once per revision, shared).
    pub(crate) fn level_scene(&mut self) -> std::sync::Arc<crate::scene::Scene> {
        let key = self.doc.key();
        match &self.level_scene {
            Some((k, s)) if *k == key => s.clone(),
            _ => {
                let s = std::sync::Arc::new(crate::scene::Scene::build(self.doc.level()));
                self.level_scene = Some((key, s.clone()));
                s
            }
        }
    }

    /// Follow the document with the drawn scene.
    pub(crate) fn refresh_scene(&mut self) {
        self.view2d.scene.refresh(&self.doc);
    }

    /// Bounds of everything in the level.
    pub(crate) fn level_bounds(&self) -> Option<(Vec2, Vec2)> {
        self.view2d.scene.level_bounds(self.doc.level())
    }

    /// Bounds of the selection.
    pub(crate) fn selection_bounds(&self) -> Option<(Vec2, Vec2)> {
        self.view2d.scene.selection_bounds(self.doc.selection())
    }

    /// The object (or the walker, as `None` inside `Some`) under world point `p`.
    pub(crate) fn pick(&self, p: Vec2) -> Option<Option<ObjectId>> {
        self.view2d
            .scene
            .pick(p, self.view2d.cam.scale, self.doc.level().walker.as_ref())
    }

    /// The walker as it walks in the 3D preview's walk mode (`None` in the other modes or with the preview
    /// closed): what the top-down view draws over the level.
    #[must_use]
    pub fn live_walker(&self) -> Option<LiveWalker> {
        let v = &self.view3d;
        if !v.open || v.cam.mode != crate::editor::view3d::scene::CameraMode::Walker {
            return None;
        }
        let w = &v.cam.walker;
        let blocked_by = match v.walk.outcome.and_then(|o| o.blocked_by) {
            Some(crate::walker::Blocker::Wall(i)) => self.doc.level().walls.get(i).map(|w| w.id),
            _ => None,
        };
        Some(LiveWalker {
            position: w.position,
            facing_deg: w.facing_deg,
            radius: w.radius,
            blocked_by,
        })
    }
}

/// The walker in walk mode, for the top-down view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LiveWalker {
    /// Where it stands, `(x, z)`.
    pub position: Vec2,
    /// Facing, degrees (0 looks down `-z`).
    pub facing_deg: f32,
    /// Collision radius, metres.
    pub radius: f32,
    /// The wall that stopped or deflected its last step.
    pub blocked_by: Option<ObjectId>,
}
