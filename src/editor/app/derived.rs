//! Derived state of the document, each a cache keyed by [`DocKey`] (plus what else it depends on) with its
//! own refresh: the problems list, the probe's hits (cast into the level's scene, kept by
//! `greybox::scene::LiveScene`) and the Compare tab's rows, and the walker the top-down view draws.

use std::collections::HashSet;

use glam::Vec2;

use super::Preview3;
use crate::editor::analysis::ProbeState;
use crate::editor::analysis::compare::{self, CompareKey};
use crate::editor::debugger::panel::DebugPanel;
use crate::editor::document::{DocKey, Document};
use crate::editor::greybox::scene::LiveScene;
use crate::editor::reach::ReachOverlay;
use crate::level::{ObjectId, Problem, Severity};

#[derive(Default)]
pub(crate) struct Problems {
    pub(crate) key: Option<DocKey>,
    pub(crate) list: Vec<Problem>,
    pub(crate) faulty: HashSet<ObjectId>,
    pub(crate) walker_faulty: bool,
    /// The reachability map whose `must_reach` problems are in the list: its document key and generation.
    pub(crate) reach: Option<(DocKey, u64)>,
    /// The level's own problems (`Level::validate`) at a revision, kept while only the reach map changes.
    validated: Option<(DocKey, Vec<Problem>)>,
    /// A large level's validation under way on a thread of its own: the revision and where its list comes.
    job: Option<(DocKey, std::sync::mpsc::Receiver<Vec<Problem>>)>,
}

/// Levels with at least this many sectors are validated off the UI thread: the overlap test of 10,000
/// sectors takes tens of milliseconds, a stalled frame after every edit. The list shown meanwhile is the
/// previous revision's.
const VALIDATE_ON_THREAD: usize = 2_000;

impl Problems {
    /// Follow the document (and the reachability map of this revision, whose `must_reach` problems join
    /// the list). While `dragging`, the level changes every frame: validated when the gesture ends.
    pub(crate) fn refresh(
        &mut self,
        ctx: &egui::Context,
        doc: &Document,
        reach: &ReachOverlay,
        dragging: bool,
    ) {
        let key = doc.key();
        let built = reach.shown().filter(|b| b.key == key);
        let map = built.and_then(|b| Some((b.generation, &b.outcome.as_ref().ok()?.map)));
        // A map that could not be built (the walker start in the air after an edit, say) leaves the
        // `must_reach` entities unchecked: that is said as a problem rather than as a clean list.
        let failed = built.and_then(|b| Some((b.generation, b.outcome.as_ref().err()?)));
        let reach = map
            .map(|(generation, _)| (key, generation))
            .or(failed.map(|(generation, _)| (key, generation)));
        if (self.key == Some(key) && self.reach == reach) || (self.key.is_some() && dragging) {
            return;
        }
        // Still validating a large level: the list stays the previous revision's for now.
        let Some(mut list) = self.validation(ctx, doc) else {
            return;
        };
        if let Some((_, map)) = map {
            list.extend(
                doc.level()
                    .reach_problems(map)
                    .into_iter()
                    .map(|p| p.problem),
            );
        }
        if let Some((_, why)) = failed
            && doc.level().must_reach_entities().next().is_some()
        {
            list.push(Problem {
                severity: Severity::Error,
                object: None,
                field: "walker".into(),
                message: format!("the must_reach entities cannot be checked: {why}"),
                line: None,
                col: None,
            });
        }
        list.sort_by_key(|p| p.severity);
        self.faulty = list
            .iter()
            .filter(|p| p.severity == Severity::Error)
            .filter_map(|p| p.object)
            .collect();
        self.walker_faulty = list
            .iter()
            .any(|p| p.severity == Severity::Error && p.field.starts_with("walker"));
        self.list = list;
        self.key = Some(key);
        self.reach = reach;
    }
}

impl Problems {
    /// `doc`'s own problems at this revision: kept, validated here (a small level), or `None` while a thread
    /// validates it (started here; one at a time, so a burst of edits validates the latest when the one
    /// running ends; it asks `ctx` for a frame when done).
    fn validation(&mut self, ctx: &egui::Context, doc: &Document) -> Option<Vec<Problem>> {
        use std::sync::mpsc::TryRecvError;
        let key = doc.key();
        if let Some((k, list)) = &self.validated
            && *k == key
        {
            return Some(list.clone());
        }
        if doc.level().sectors.len() < VALIDATE_ON_THREAD {
            let list = doc.level().validate();
            self.validated = Some((key, list.clone()));
            return Some(list);
        }
        if let Some((k, rx)) = &self.job {
            let k = *k;
            match rx.try_recv() {
                Ok(list) => {
                    self.job = None;
                    self.validated = Some((k, list));
                    if k == key {
                        return self.validated.as_ref().map(|(_, l)| l.clone());
                    }
                }
                Err(TryRecvError::Empty) => return None,
                Err(TryRecvError::Disconnected) => self.job = None,
            }
        }
        let level = doc.level().clone();
        let ctx = ctx.clone();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            // The editor may have moved on (or closed): nobody listening is fine.
            let _ = tx.send(level.validate());
            ctx.request_repaint();
        });
        self.job = Some((key, rx));
        None
    }
}

impl ProbeState {
    /// The Compare tab's rows for the probe and the debugger's frame (kept until either or `doc` changes).
    pub(crate) fn refresh_compare(&mut self, doc: &Document, debug: &DebugPanel) {
        let key: CompareKey = (
            doc.key(),
            self.ray.map(|(r, t)| (r.origin, r.dir, t)),
            debug.debugger.as_ref().map(|d| d.cursor()),
        );
        if self.compare.as_ref().is_some_and(|(k, _, _)| *k == key) {
            return;
        }
        let tris = self
            .ray
            .map(|(ray, max_t)| compare::triangles(doc.level(), &ray, max_t));
        let dt = doc.level().simulation.dt;
        let sweeps = match &debug.debugger {
            Some(d) => Some(compare::sweeps(d.world(), dt)),
            None => crate::sim::World::from_level(doc.level())
                .ok()
                .map(|w| compare::sweeps(&w, dt)),
        };
        self.compare = Some((key, tris, sweeps));
    }

    /// The probe's hits (a ray dragged in the top-down view first follows the probe height), cast into the
    /// level's scene kept in `scene` when the ray or `doc` changed.
    pub(crate) fn refresh(&mut self, doc: &Document, scene: &mut LiveScene) {
        if self.flat
            && let Some((ray, _)) = &mut self.ray
            && self.height.is_finite()
        {
            ray.origin.y = self.height;
        }
        let Some((ray, max_t)) = self.ray else {
            self.result = None;
            return;
        };
        let key = (ray.origin, ray.dir, max_t, doc.key());
        if self.result.as_ref().is_some_and(|(k, _)| *k == key) {
            return;
        }
        let scene = scene.at(doc);
        self.result = Some((
            key,
            crate::editor::analysis::probe::cast_in(doc.level(), &scene, &ray, max_t),
        ));
    }
}

impl Preview3 {
    /// The walker as it walks in the 3D preview's Walker mode (`None` in the other modes or with the
    /// preview closed): what the top-down view draws over `level`.
    #[must_use]
    pub fn live_walker(&self, level: &crate::level::Level) -> Option<LiveWalker> {
        if !self.open || self.cam.mode != crate::editor::view3d::scene::CameraMode::Walker {
            return None;
        }
        let w = &self.cam.walker;
        let blocked_by = match self.walk.outcome.and_then(|o| o.blocked_by) {
            Some(crate::walker::Blocker::Wall(i)) => level.walls.get(i).map(|w| w.id),
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
