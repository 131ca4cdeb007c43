//! The reachability overlay's state (no egui): the map shown, built on a thread of its own from a snapshot of
//! the document at one revision, and the spot clicked with its path or blocker.
//!
//! Each build is keyed by the [`DocKey`] it was taken at; when it ends, its result is shown only if the
//! document is still at that key, otherwise it is dropped (counted in [`ReachOverlay::dropped`]). An edit
//! while a build runs starts the build of the edited document at once, beside the old one: the map's build
//! has no way to stop early, so the superseded build is left to finish on its thread and its result is
//! thrown away (it is counted dropped when superseded). At most two run: an edit while two run waits for
//! the older to end, so a burst of edits (a wheel turned, a number dragged) never piles up threads, and the
//! last edit's map starts at most one build's time after it. Until a newer map is shown, the last one stays
//! (the views draw it faint while it is not the document's).

use std::sync::Arc;
use std::time::{Duration, Instant};

use glam::Vec3;

use super::geometry::{FloorView, ReachGeometry, short_label};
use crate::character::{Blocker3, ReachError, ReachMap, ReachSettings};
use crate::editor::document::{DocKey, Document};
use crate::editor::nav::model::{Change, changed_box};
use crate::level::Level;
use crate::scene::Scene;
use crate::shape::Aabb;

/// Why there is no map of a level without a walker start.
pub const NO_WALKER: &str =
    "no walker start: reachability is measured from it (place one with the Walker tool, K)";

/// How long a revision that came in a burst of edits (less than this after the one before: a wheel turned,
/// a number dragged) must stand before its map is started, so a burst makes one build, not one per edit.
/// An edit after a quiet spell starts its build at once.
pub const SETTLE: Duration = Duration::from_millis(60);

/// What a build is made from: the document's level at one revision, and the map shown before, which the new
/// one is made from where the edit did not reach ([`ReachMap::update`]).
pub struct ReachRequest {
    /// The document and revision it was taken at.
    pub key: DocKey,
    /// The level's statics (shared with the rest of the editor at this revision).
    pub scene: Arc<Scene>,
    /// The level at that revision: its walker start and its character are what [`Level::reach_map`] maps
    /// from, as `collidoscope check --reach` does.
    pub level: Level,
    /// Threads the map may use.
    pub threads: usize,
    /// The map shown when the request was made (of an earlier revision), if any: the build keeps its places
    /// and moves away from what changed since.
    pub base: Option<Arc<ReachBuilt>>,
}

impl ReachRequest {
    /// A request for `doc` as it is now, with its runtime `scene` (built from it at this revision). The map
    /// leaves one core to the interface.
    #[must_use]
    pub fn of(doc: &Document, scene: Arc<Scene>) -> Self {
        Self {
            key: doc.key(),
            scene,
            level: doc.level().clone(),
            threads: std::thread::available_parallelism()
                .map_or(1, |n| n.get().saturating_sub(1).max(1)),
            base: None,
        }
    }

    /// Build the map and its drawing (what the builder's thread runs): the map [`Level::reach_map`] makes,
    /// from the walker start with the level's character, made from the base map where the edit did not
    /// reach.
    #[must_use]
    pub fn build(self) -> ReachBuilt {
        let began = Instant::now();
        let settings = ReachSettings {
            threads: self.threads,
            ..ReachSettings::default()
        };
        let level = Arc::new(self.level);
        let base = self.base.as_ref().and_then(|b| b.outcome.as_ref().ok());
        let outcome = match map_of(&level, &self.scene, base, &settings) {
            Ok(map) => Ok(ReachData {
                geometry: ReachGeometry::of(&map),
                map,
                level,
                scene: self.scene,
                updated: base.is_some(),
            }),
            Err(_) if level.walker.is_none() => Err(NO_WALKER.to_owned()),
            Err(e) => Err(format!("no map: {e}")),
        };
        ReachBuilt {
            key: self.key,
            generation: 0,
            outcome,
            seconds: began.elapsed().as_secs_f64(),
        }
    }
}

/// [`Level::reach_map`] of `level` over `scene`, made from `base`'s map (when there is one) where the edit
/// from its level did not reach.
fn map_of(
    level: &Level,
    scene: &Scene,
    base: Option<&ReachData>,
    settings: &ReachSettings,
) -> Result<ReachMap, ReachError> {
    // The start as `Level::reach_map` finds it: on the walker start's storey.
    let Some(start) = level
        .walker_feet()
        .map(|w| level.start_feet(scene).unwrap_or(w))
    else {
        return level.reach_map(scene, settings);
    };
    let ctl = level.character.unwrap_or_default();
    // Nothing changed: a box with its minimum above its maximum; anything may have: one not finite.
    let nothing = Aabb::new(Vec3::ONE, Vec3::ZERO);
    let everything = Aabb::new(Vec3::NAN, Vec3::NAN);
    match base {
        Some(b) => {
            let changed = match changed_box(&b.level, &b.scene, level, scene) {
                Change::Nothing => nothing,
                Change::Inside(changed) => changed,
                Change::Everything => everything,
            };
            b.map.update(scene, &ctl, start, settings, changed)
        }
        None => ReachMap::default().update(scene, &ctl, start, settings, everything),
    }
}

/// A map and its drawing.
#[derive(Debug)]
pub struct ReachData {
    /// The runtime's map.
    pub map: ReachMap,
    /// How the views draw it.
    pub geometry: ReachGeometry,
    /// The level it maps (the next map is made from this one where an edit of it did not reach).
    pub level: Arc<Level>,
    /// The level's scene.
    pub scene: Arc<Scene>,
    /// Whether the map was made from the one shown before ([`ReachMap::update`]) rather than afresh.
    pub updated: bool,
}

/// A finished build.
#[derive(Debug)]
pub struct ReachBuilt {
    /// The document and revision it maps.
    pub key: DocKey,
    /// Counts the maps shown (each accepted build gets the next), so the views' caches know a new one.
    pub generation: u64,
    /// The map, or why there is none (no walker start, a start in the air, …).
    pub outcome: Result<ReachData, String>,
    /// Seconds the build took (the map and its drawing).
    pub seconds: f64,
}

/// The build under way.
type Job = crate::editor::job::Job<ReachBuilt>;

/// What a poll found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Polled {
    /// No build, or it is still running.
    Nothing,
    /// A build ended and is shown.
    Shown,
    /// A build ended for an older revision or another document, and was dropped.
    Dropped,
}

/// What the spot clicked is.
#[derive(Clone, Debug, PartialEq)]
pub enum TargetView {
    /// Reached: the path from the start, feet positions (each one replayed `move_character` from the one
    /// before), and its length along the floor, metres.
    Path {
        /// Feet positions from the start.
        path: Vec<Vec3>,
        /// Its length, metres.
        length: f32,
    },
    /// It can be stood on but is not reached.
    Blocked {
        /// The limit that keeps it out.
        blocker: Blocker3,
        /// The limit in words ([`Blocker3::describe`]).
        words: String,
        /// In a few words, as labelled.
        short: String,
        /// The path to the reached place nearest the limit: how far the character gets.
        partial: Option<Vec<Vec3>>,
    },
    /// Nowhere to stand there (in the air, inside or against something, too steep).
    Nowhere,
    /// No map to ask (none built, or the level has none).
    NoMap,
}

/// The spot clicked with the Reach tool, and what the shown map says of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    /// The spot, as feet.
    pub to: Vec3,
    /// The map generation `view` was worked out on.
    pub generation: u64,
    /// What it is.
    pub view: TargetView,
}

/// The overlay: on or off, the map shown, the build under way and the clicked spot.
#[derive(Default)]
pub struct ReachOverlay {
    /// Drawn in both views (View → Reachability overlay).
    pub on: bool,
    /// Which place of a column the top-down view shows.
    pub floor: FloorView,
    shown: Option<Arc<ReachBuilt>>,
    job: Option<Job>,
    /// A build overtaken by an edit, left to finish; its result is thrown away.
    superseded: Option<Job>,
    /// The revision last seen, when it was first seen, and whether it came in a burst (less than
    /// [`SETTLE`] after the one before).
    seen: Option<(DocKey, Instant, bool)>,
    generation: u64,
    dropped: usize,
    started: usize,
    target: Option<Target>,
}

impl ReachOverlay {
    /// The last map shown (perhaps of an earlier revision: see [`ReachOverlay::is_current`]).
    #[must_use]
    pub fn shown(&self) -> Option<&Arc<ReachBuilt>> {
        self.shown.as_ref()
    }

    /// The shown map and its drawing, when there is one.
    #[must_use]
    pub fn data(&self) -> Option<&ReachData> {
        self.shown.as_ref().and_then(|b| b.outcome.as_ref().ok())
    }

    /// Whether the shown map is of the document at `key`.
    #[must_use]
    pub fn is_current(&self, key: DocKey) -> bool {
        self.shown.as_ref().is_some_and(|b| b.key == key)
    }

    /// How long the build under way has run, and the revision it maps.
    #[must_use]
    pub fn building(&self) -> Option<(DocKey, Duration)> {
        self.job.as_ref().map(|j| (j.key(), j.elapsed()))
    }

    /// Builds dropped because the document moved on before they ended.
    #[must_use]
    pub fn dropped(&self) -> usize {
        self.dropped
    }

    /// Builds started.
    #[must_use]
    pub fn started(&self) -> usize {
        self.started
    }

    /// Whether a build of `key` should start now: the shown map is not of `key`, and no build runs, or the
    /// one running maps an older revision and none was superseded yet.
    #[must_use]
    pub fn wants_build(&self, key: DocKey) -> bool {
        !self.is_current(key)
            && match &self.job {
                None => true,
                Some(j) => j.key() != key && self.superseded.is_none(),
            }
    }

    /// Whether revision `key`, seen now at `now`, has settled: it came after a quiet spell, or has stood
    /// for [`SETTLE`] (see there). Called each frame with the document's key.
    pub fn settled(&mut self, key: DocKey, now: Instant) -> bool {
        match self.seen {
            Some((k, at, burst)) if k == key => !burst || now.duration_since(at) >= SETTLE,
            Some((_, at, _)) => {
                let burst = now.duration_since(at) < SETTLE;
                self.seen = Some((key, now, burst));
                !burst
            }
            None => {
                self.seen = Some((key, now, false));
                true
            }
        }
    }

    /// Start building on a thread of its own: `build` makes the map of `key`. A build still running is
    /// superseded: left to finish, its result thrown away, counted dropped now.
    pub fn start(&mut self, key: DocKey, build: impl FnOnce() -> ReachBuilt + Send + 'static) {
        if let Some(old) = self.job.take() {
            self.dropped += 1;
            self.superseded = Some(old);
        }
        self.started += 1;
        match Job::spawn("reach map", key, build) {
            Ok(job) => self.job = Some(job),
            Err(why) => self.accept(ReachBuilt {
                key,
                generation: 0,
                outcome: Err(why),
                seconds: 0.0,
            }),
        }
    }

    /// Take the build's result when it has ended: shown when it maps `latest` (the document now), else
    /// dropped.
    pub fn poll(&mut self, latest: DocKey) -> Polled {
        if let Some(old) = &self.superseded
            && old.ended()
        {
            self.superseded = None;
        }
        let Some(job) = &self.job else {
            return Polled::Nothing;
        };
        let built = match job.try_take() {
            None => return Polled::Nothing,
            Some(Ok(b)) => b,
            Some(Err(why)) => ReachBuilt {
                key: job.key(),
                generation: 0,
                outcome: Err(why),
                seconds: job.elapsed().as_secs_f64(),
            },
        };
        self.job = None;
        if built.key == latest {
            self.accept(built);
            Polled::Shown
        } else {
            self.dropped += 1;
            Polled::Dropped
        }
    }

    fn accept(&mut self, mut built: ReachBuilt) {
        self.generation += 1;
        built.generation = self.generation;
        self.shown = Some(Arc::new(built));
        if let Some(t) = self.target.take() {
            self.set_target(t.to);
        }
    }

    /// Show what the map says of spot `to` (feet): its path or what keeps it out. Kept, and asked again of
    /// each newer map.
    pub fn set_target(&mut self, to: Vec3) {
        let (generation, view) = match self.shown.as_ref() {
            Some(b) => (
                b.generation,
                b.outcome
                    .as_ref()
                    .map_or(TargetView::NoMap, |d| target_view(d, to)),
            ),
            None => (0, TargetView::NoMap),
        };
        self.target = Some(Target {
            to,
            generation,
            view,
        });
    }

    /// Forget the clicked spot.
    pub fn clear_target(&mut self) -> bool {
        self.target.take().is_some()
    }

    /// The clicked spot.
    #[must_use]
    pub fn target(&self) -> Option<&Target> {
        self.target.as_ref()
    }

    /// The path to walk: the clicked spot's, when it is reached on a map of the document at `key`; else why
    /// not.
    pub fn path_to_walk(&self, key: DocKey) -> Result<&[Vec3], &'static str> {
        let Some(t) = &self.target else {
            return Err("no path: click a reached spot with the Reach tool (H) first");
        };
        if !self.is_current(key) {
            return Err("the map is being made again for the edited level: walk once it is ready");
        }
        match &t.view {
            TargetView::Path { path, .. } if path.len() >= 2 => Ok(path),
            TargetView::Path { .. } => Err("that spot is where the character starts"),
            _ => Err("no path: the spot clicked is not reached"),
        }
    }
}

/// What `data`'s map says of spot `to`.
fn target_view(data: &ReachData, to: Vec3) -> TargetView {
    let map = &data.map;
    let ctl = map.controller();
    if let Some(path) = map.path(to).filter(|_| map.reachable(to)) {
        let length = path.windows(2).map(|w| w[0].distance(w[1])).sum();
        return TargetView::Path { path, length };
    }
    if !map.can_stand(to) {
        return TargetView::Nowhere;
    }
    match map.blocker(to) {
        Some(blocker) => {
            let partial = data
                .geometry
                .reached_near(blocker.at(), 3, ctl.max_step + 0.5)
                .and_then(|p| map.path(p.feet));
            TargetView::Blocked {
                blocker,
                words: blocker.describe(ctl),
                short: short_label(&blocker, ctl),
                partial,
            }
        }
        None => TargetView::Nowhere,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;
    use std::sync::mpsc;

    fn key(doc: &Document, revision: u64) -> DocKey {
        DocKey {
            id: doc.id(),
            revision,
        }
    }

    fn failed(key: DocKey) -> ReachBuilt {
        ReachBuilt {
            key,
            generation: 0,
            outcome: Err("test".into()),
            seconds: 0.0,
        }
    }

    /// Poll until the build ends (a few seconds at most).
    fn wait(o: &mut ReachOverlay, latest: DocKey) -> Polled {
        for _ in 0..500 {
            match o.poll(latest) {
                Polled::Nothing => std::thread::sleep(Duration::from_millis(10)),
                p => return p,
            }
        }
        panic!("the build never ended");
    }

    #[test]
    fn a_build_overtaken_by_an_edit_is_dropped_and_the_next_maps_the_edit() {
        let doc = Document::new(Level::default(), None);
        let (a, b) = (key(&doc, 1), key(&doc, 2));
        let mut o = ReachOverlay::default();
        assert!(o.wants_build(a));
        // A build of revision 1 held until the document has moved on to revision 2.
        let (go, gate) = mpsc::channel::<()>();
        o.start(a, move || {
            let _ = gate.recv();
            failed(a)
        });
        assert!(!o.wants_build(a), "the build of this revision runs");
        assert_eq!(o.poll(b), Polled::Nothing);
        assert!(o.building().is_some_and(|(k, _)| k == a));
        // The edit's build starts at once beside it; the old one is dropped.
        assert!(o.wants_build(b));
        o.start(b, move || failed(b));
        assert_eq!(o.dropped(), 1);
        assert!(o.building().is_some_and(|(k, _)| k == b));
        assert_eq!(wait(&mut o, b), Polled::Shown);
        assert!(o.is_current(b) && !o.is_current(a) && !o.wants_build(b));
        assert_eq!(o.shown().map(|s| s.generation), Some(1));
        // A third revision waits while two builds run, then starts when the old one has ended.
        let c = key(&doc, 3);
        let (go_c, gate_c) = mpsc::channel::<()>();
        o.start(c, move || {
            let _ = gate_c.recv();
            failed(c)
        });
        let d = key(&doc, 4);
        assert!(!o.wants_build(d), "two builds run: the next waits");
        let _ = go.send(());
        for _ in 0..500 {
            let _ = o.poll(d);
            if o.superseded.is_none() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(
            o.superseded.is_none(),
            "the first build ended and was thrown away"
        );
        assert!(o.wants_build(d));
        let _ = go_c.send(());
        assert_eq!(o.started(), 3);
        assert_eq!(
            o.shown().map(|s| s.key),
            Some(b),
            "never an older map over a newer"
        );
    }

    #[test]
    fn a_build_that_panics_says_so() {
        let doc = Document::new(Level::default(), None);
        let a = key(&doc, 1);
        let mut o = ReachOverlay::default();
        o.start(a, || panic!("a test panic in the builder"));
        assert_eq!(wait(&mut o, a), Polled::Shown);
        let err = o.shown().and_then(|s| s.outcome.as_ref().err()).cloned();
        assert_eq!(err.as_deref(), Some("the map's build failed (see the log)"));
    }

    fn build_now(level: Level) -> (ReachOverlay, DocKey) {
        let doc = Document::new(level, None);
        let scene = Arc::new(Scene::build(doc.level()));
        let request = ReachRequest::of(&doc, scene);
        let mut o = ReachOverlay::default();
        let k = doc.key();
        o.start(k, move || request.build());
        assert_eq!(wait(&mut o, k), Polled::Shown);
        (o, k)
    }

    #[test]
    fn a_click_shows_the_path_or_what_keeps_the_spot_out() {
        let level = Level::from_ron_str(
            r"(version: 2, aabbs: [
                (id: 1, min: (-5.0, -0.2, -5.0), max: (5.0, 0.0, 5.0)),
                (id: 2, min: (1.0, 0.0, -2.0), max: (4.0, 0.6, 2.0)),
            ],
            walker: (position: (-3.0, 0.0), facing_deg: 0.0, eye_height: 1.7, radius: 0.3))",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let (mut o, k) = build_now(level);
        assert!(o.data().is_some());
        // A reached spot: a path from the start to it, every step short.
        o.set_target(Vec3::new(-3.0, 0.01, 3.0));
        match &o.target().map(|t| t.view.clone()) {
            Some(TargetView::Path { path, length }) => {
                assert!(path.len() > 5 && *length > 2.9, "{path:?}");
                assert!(path.windows(2).all(|w| w[0].distance(w[1]) < 1.5));
            }
            other => panic!("{other:?}"),
        }
        assert!(o.path_to_walk(k).is_ok());
        // On the 0.6 m platform: a step too high, and how far the character gets toward it.
        o.set_target(Vec3::new(2.5, 0.61, 0.0));
        match &o.target().map(|t| t.view.clone()) {
            Some(TargetView::Blocked { short, partial, .. }) => {
                assert!(short.starts_with("step 0.6"), "{short}");
                let end = partial.as_ref().and_then(|p| p.last().copied());
                assert!(end.is_some_and(|e| e.x > 0.0 && e.x < 1.0), "{end:?}");
            }
            other => panic!("{other:?}"),
        }
        assert!(o.path_to_walk(k).is_err());
        // In the air beyond the floor: nowhere to stand.
        o.set_target(Vec3::new(9.0, 0.01, 9.0));
        assert_eq!(o.target().map(|t| &t.view), Some(&TargetView::Nowhere));
        assert!(o.clear_target() && o.target().is_none());
    }

    #[test]
    fn a_level_without_a_walker_start_says_so() {
        let (o, k) = build_now(Level::default());
        assert!(o.is_current(k) && o.data().is_none());
        let err = o.shown().and_then(|s| s.outcome.as_ref().err()).cloned();
        assert_eq!(err.as_deref(), Some(NO_WALKER));
    }
}
