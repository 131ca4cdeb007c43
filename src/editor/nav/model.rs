//! The navigation overlay's state (no egui): the agent sizes, the map shown, the build under way, the start
//! and goal clicked with their path, and the agent walking it.
//!
//! A build runs on a thread of its own from a snapshot of the document at one revision ([`NavRequest`]).
//! The first build bakes the whole map; after an edit, the thread takes the last map it made (shared, so
//! nothing is copied on the interface's thread), finds the objects the edit touched by comparing the two
//! levels, and calls [`NavMap::update`] with the box around their old and new places (see [`changed_box`]).
//! A change the box cannot describe (the level's character or gravity, a mover, an unbounded plane, other
//! agent sizes) bakes again. One build runs at a time: an edit while one runs waits for it, then the next
//! updates from the map it made, so a burst of edits never piles up threads. A finished build is always
//! shown (faint while the document has moved on), since it is the newest map there is.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use glam::Vec3;

use super::geometry::NavGeometry;
use super::walker::NavWalker;
use crate::character::CharacterController;
use crate::editor::document::{DocKey, Document, Object};
use crate::level::{Level, ObjectId};
use crate::nav::{NavMap, NavPath, NavSettings};
use crate::scene::Scene;
use crate::shape::Aabb;

/// How long a revision that came in a burst of edits must stand before its map is started (as the
/// reachability overlay's).
pub const SETTLE: Duration = Duration::from_millis(60);

/// An agent size added in the panel: the level's character with this radius and height.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AgentSize {
    /// Capsule radius, metres.
    pub radius: f32,
    /// Capsule height, metres.
    pub height: f32,
}

impl Default for AgentSize {
    /// A larger agent than the default character: 0.5 m by 2.2 m.
    fn default() -> Self {
        Self {
            radius: 0.5,
            height: 2.2,
        }
    }
}

/// The agents of a level: its character first, then each added size (the character's limits, this size).
#[must_use]
pub fn agents(level: &Level, added: &[AgentSize]) -> Vec<CharacterController> {
    let base = crate::editor::document::character::effective(level);
    std::iter::once(base)
        .chain(added.iter().map(|s| CharacterController {
            radius: s.radius,
            height: s.height,
            ..base
        }))
        .collect()
}

/// The map a build starts from: the last one made, with the level and scene it was made of.
#[derive(Clone)]
pub struct Base {
    /// The map.
    pub map: Arc<NavMap>,
    /// The level it maps.
    pub level: Arc<Level>,
    /// That level's scene.
    pub scene: Arc<Scene>,
}

/// What a build is made from: the document's level at one revision.
pub struct NavRequest {
    /// The document and revision it was taken at.
    pub key: DocKey,
    /// The level's statics at that revision.
    pub scene: Arc<Scene>,
    /// The level at that revision.
    pub level: Arc<Level>,
    /// The agents, cell, jumps and drops.
    pub settings: NavSettings,
    /// The map to update (same settings), if any.
    pub base: Option<Base>,
    /// A path to find on the new map: agent, start, goal.
    pub ask: Option<(usize, Vec3, Vec3)>,
    /// The agent the overlay shows: what its path queries need is made on the builder's thread
    /// ([`NavMap::prepare`]), so the first click on a large map does not wait for it.
    pub agent: usize,
}

/// How a map was made.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Made {
    /// Baked whole.
    Baked,
    /// Updated inside this box (the edit's objects, old and new places).
    Updated(Aabb),
    /// The edit touched nothing the map stands on: the map was kept.
    Kept,
}

/// A map and its drawing.
pub struct NavData {
    /// The runtime's map.
    pub map: Arc<NavMap>,
    /// The level it maps.
    pub level: Arc<Level>,
    /// Its scene.
    pub scene: Arc<Scene>,
    /// How the views draw it, for each agent.
    pub geometry: NavGeometry,
    /// How it was made.
    pub made: Made,
}

/// A finished build.
pub struct NavBuilt {
    /// The document and revision it maps.
    pub key: DocKey,
    /// Counts the maps shown, so the views' caches know a new one.
    pub generation: u64,
    /// The map, or why there is none.
    pub outcome: Result<NavData, String>,
    /// The path asked for, found on the new map.
    pub path: Option<(usize, Vec3, Vec3, Option<NavPath>)>,
    /// Seconds the build took (the map, its drawing and the path).
    pub seconds: f64,
}

impl NavRequest {
    /// Build (what the builder's thread runs): update the base map when the edit allows it, else bake.
    #[must_use]
    pub fn build(self) -> NavBuilt {
        let began = Instant::now();
        let (map, made) = match &self.base {
            Some(b) if b.map.settings() == &self.settings => {
                match changed_box(&b.level, &b.scene, &self.level, &self.scene) {
                    Change::Nothing => (b.map.clone(), Made::Kept),
                    Change::Inside(changed) => {
                        let mut map = (*b.map).clone();
                        map.update(&self.scene, changed);
                        (Arc::new(map), Made::Updated(changed))
                    }
                    Change::Everything => (
                        Arc::new(NavMap::build(&self.scene, &self.settings)),
                        Made::Baked,
                    ),
                }
            }
            _ => (
                Arc::new(NavMap::build(&self.scene, &self.settings)),
                Made::Baked,
            ),
        };
        map.prepare(self.agent);
        let path = self
            .ask
            .map(|(agent, from, to)| (agent, from, to, map.path(agent, from, to)));
        let outcome = match map.error() {
            Some(e) => Err(format!("no map: {e}")),
            None => Ok(NavData {
                geometry: NavGeometry::of(&map),
                map,
                level: self.level,
                scene: self.scene,
                made,
            }),
        };
        NavBuilt {
            key: self.key,
            generation: 0,
            outcome,
            path,
            seconds: began.elapsed().as_secs_f64(),
        }
    }
}

/// What an edit changed, for the map.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Change {
    /// Nothing the map stands on (entities, triggers, names).
    Nothing,
    /// Objects inside this box (their old and new places).
    Inside(Aabb),
    /// Something a box cannot bound: bake again.
    Everything,
}

/// What changed from level `a` (scene `sa`) to `b` (scene `sb`): the box around the old and new places of
/// every object added, removed or changed, or [`Change::Everything`] when the level's character, gravity,
/// wall height or movers changed, or a changed object is unbounded (a plane).
#[must_use]
pub fn changed_box(a: &Level, sa: &Scene, b: &Level, sb: &Scene) -> Change {
    if a.character != b.character
        || a.simulation.gravity != b.simulation.gravity
        || a.default_wall_height != b.default_wall_height
        || a.movers != b.movers
    {
        return Change::Everything;
    }
    let mut old: HashMap<ObjectId, Object> = Object::all(a).map(|o| (o.id(), o)).collect();
    let mut ids = Vec::new();
    for o in Object::all(b) {
        match old.remove(&o.id()) {
            Some(before) if before == o => {}
            _ => ids.push(o.id()),
        }
    }
    ids.extend(old.into_keys());
    let mut out: Option<Aabb> = None;
    for id in ids {
        for scene in [sa, sb] {
            let Some(shape) = scene.object(id) else {
                continue;
            };
            let Some(bb) = shape.bounds().filter(Aabb::is_valid) else {
                return Change::Everything;
            };
            out = Some(match out {
                None => bb,
                Some(o) => o.union(&bb),
            });
        }
    }
    out.map_or(Change::Nothing, Change::Inside)
}

/// The build under way.
type Job = crate::editor::job::Job<NavBuilt>;

/// The path asked for: the agent, the start and goal, and the map's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Route {
    /// The agent (index into the agents: 0 is the level's character).
    pub agent: usize,
    /// The start clicked (feet).
    pub from: Vec3,
    /// The goal clicked (feet).
    pub to: Vec3,
    /// The path, or `None` where the agent cannot get there.
    pub path: Option<NavPath>,
}

/// The overlay: on or off, the agents, the map shown, the build under way, the clicked ends, the walker.
#[derive(Default)]
pub struct NavOverlay {
    /// Drawn in both views (View → Navigation overlay).
    pub on: bool,
    /// The sizes added to the level's character.
    pub added: Vec<AgentSize>,
    /// The agent drawn and asked for paths (0: the level's character).
    pub agent: usize,
    /// The start clicked, waiting for its goal.
    pub start: Option<Vec3>,
    /// The last path asked for.
    pub route: Option<Route>,
    /// The agent walking the path in the 3D preview.
    pub walker: Option<NavWalker>,
    shown: Option<Arc<NavBuilt>>,
    job: Option<Job>,
    seen: Option<(DocKey, Instant, bool)>,
    generation: u64,
    started: usize,
    /// The route's path is to be found on the builder's thread: its agent's queries on the shown map would
    /// first make what a large map's first query makes (`NavMap::is_prepared`), a wait the interface's thread
    /// does not take.
    asking: bool,
}

impl NavOverlay {
    /// The last map shown (perhaps of an earlier revision: see [`NavOverlay::is_current`]).
    #[must_use]
    pub fn shown(&self) -> Option<&Arc<NavBuilt>> {
        self.shown.as_ref()
    }

    /// The shown map and its drawing, when there is one.
    #[must_use]
    pub fn data(&self) -> Option<&NavData> {
        self.shown.as_ref().and_then(|b| b.outcome.as_ref().ok())
    }

    /// Whether the shown map is of the document at `key`.
    #[must_use]
    pub fn is_current(&self, key: DocKey) -> bool {
        self.shown.as_ref().is_some_and(|b| b.key == key)
    }

    /// How long the build under way has run.
    #[must_use]
    pub fn building(&self) -> Option<Duration> {
        self.job.as_ref().map(Job::elapsed)
    }

    /// Builds started.
    #[must_use]
    pub fn started(&self) -> usize {
        self.started
    }

    /// The settings the overlay bakes for `level`: its character and the added sizes, its gravity, threads
    /// leaving a core to the interface.
    #[must_use]
    pub fn settings(&self, level: &Level) -> NavSettings {
        NavSettings {
            agents: agents(level, &self.added),
            gravity: level.simulation.gravity,
            threads: std::thread::available_parallelism()
                .map_or(1, |n| n.get().saturating_sub(1).max(1)),
            ..NavSettings::default()
        }
    }

    /// Whether revision `key`, seen now, has settled: it came after a quiet spell, or has stood for
    /// [`SETTLE`].
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

    /// Whether a build of `doc` as it is should start: none runs and the shown map is not of it (or was
    /// baked with other agents).
    #[must_use]
    pub fn wants_build(&self, doc: &Document) -> bool {
        self.job.is_none()
            && (self.asking
                || match &self.shown {
                    None => true,
                    Some(b) => {
                        b.key != doc.key()
                            || b.outcome
                                .as_ref()
                                .is_ok_and(|d| d.map.settings() != &self.settings(doc.level()))
                    }
                })
    }

    /// Whether the route's path is being found on the builder's thread (see [`NavOverlay::ask`]).
    #[must_use]
    pub fn is_asking(&self) -> bool {
        self.asking || (self.job.is_some() && self.route.as_ref().is_some_and(|r| r.path.is_none()))
    }

    /// The request for `doc` as it is, with its `scene`: an update of the shown map when there is one.
    #[must_use]
    pub fn request(&self, doc: &Document, scene: Arc<Scene>) -> NavRequest {
        let base = self.data().map(|d| Base {
            map: d.map.clone(),
            level: d.level.clone(),
            scene: d.scene.clone(),
        });
        let ask = self.route.as_ref().map(|r| (r.agent, r.from, r.to));
        NavRequest {
            key: doc.key(),
            scene,
            level: Arc::new(doc.level().clone()),
            settings: self.settings(doc.level()),
            base,
            ask,
            agent: self.agent,
        }
    }

    /// Start building on a thread of its own.
    pub fn start(&mut self, key: DocKey, build: impl FnOnce() -> NavBuilt + Send + 'static) {
        self.started += 1;
        self.asking = false;
        match Job::spawn("navigation map", key, build) {
            Ok(job) => self.job = Some(job),
            Err(why) => self.accept(NavBuilt {
                key,
                generation: 0,
                outcome: Err(why),
                path: None,
                seconds: 0.0,
            }),
        }
    }

    /// Take the build's result when it has ended. Returns whether a map was shown.
    pub fn poll(&mut self) -> bool {
        let Some(job) = &self.job else {
            return false;
        };
        let built = match job.try_take() {
            None => return false,
            Some(Ok(b)) => b,
            Some(Err(why)) => NavBuilt {
                key: job.key(),
                generation: 0,
                outcome: Err(why),
                path: None,
                seconds: job.elapsed().as_secs_f64(),
            },
        };
        self.job = None;
        self.accept(built);
        true
    }

    fn accept(&mut self, mut built: NavBuilt) {
        self.generation += 1;
        built.generation = self.generation;
        // The path the build found for the ends still asked for replaces the old answer.
        if let (Some((agent, from, to, path)), Some(r)) = (built.path.take(), &self.route)
            && (r.agent, r.from, r.to) == (agent, from, to)
        {
            let changed = r.path != path;
            self.route = Some(Route {
                agent,
                from,
                to,
                path,
            });
            if changed {
                self.walk_route();
            }
        }
        self.shown = Some(Arc::new(built));
    }

    /// A click: the start when there is none (or a path was shown: a new start), else the goal, whose path
    /// is found at once and walked. Returns the status line.
    pub fn click(&mut self, at: Vec3) -> String {
        if self.start.is_none() {
            self.start = Some(at);
            self.route = None;
            self.walker = None;
            return format!(
                "navigation start at ({:.2}, {:.2}, {:.2}): Shift+click the goal",
                at.x, at.y, at.z
            );
        }
        let from = self.start.take().unwrap_or(at);
        self.ask(from, at)
    }

    /// Find the path from `from` to `to` for the chosen agent on the shown map, and walk it. Where the agent's
    /// queries on that map are not ready ([`NavMap::is_prepared`]: a large map's landmarks, about 0.15 s on a
    /// 100 m maze), the path is found on the builder's thread by the next refresh, which shows it.
    pub fn ask(&mut self, from: Vec3, to: Vec3) -> String {
        let agent = self.agent;
        let ready = self.data().is_none_or(|d| d.map.is_prepared(agent));
        let path = self
            .data()
            .filter(|_| ready)
            .and_then(|d| d.map.path(agent, from, to));
        self.route = Some(Route {
            agent,
            from,
            to,
            path,
        });
        if !ready {
            self.walker = None;
            self.asking = true;
            return format!("navigation: finding the path for agent {}…", agent + 1);
        }
        self.walk_route();
        super::route_text(self)
    }

    /// Choose agent `agent`: the path is asked again for it.
    pub fn set_agent(&mut self, agent: usize) -> String {
        self.agent = agent;
        match self.route.clone() {
            Some(r) => self.ask(r.from, r.to),
            None => format!("navigation agent {}", agent + 1),
        }
    }

    /// The agent walks the route's path from its start again (nothing when there is no path).
    pub fn walk_route(&mut self) {
        let agent = self.agent;
        let walker = self.data().and_then(|d| {
            let c = *d.map.settings().agents.get(agent)?;
            let Some(Route {
                path: Some(p),
                from,
                to,
                ..
            }) = &self.route
            else {
                return None;
            };
            let waits = d.map.ride_seconds(agent, p);
            Some(NavWalker::new(p.clone(), (*from, *to), c, waits))
        });
        self.walker = walker;
    }

    /// Forget the start, the path and the walker.
    pub fn clear(&mut self) -> bool {
        let had = self.start.is_some() || self.route.is_some();
        self.start = None;
        self.route = None;
        self.walker = None;
        had
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn room(extra: &str) -> Level {
        Level::from_ron_str(&format!(
            r"(version: 2, aabbs: [
                (id: 1, min: (-3.0, -0.2, -3.0), max: (3.0, 0.0, 3.0)),
                (id: 2, min: (0.5, 0.0, -1.0), max: (1.5, 0.3, 1.0)),
                {extra}
            ])"
        ))
        .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn the_changed_box_holds_the_old_and_new_places_of_what_moved() {
        let a = room("");
        let mut b = a.clone();
        b.aabbs[1].min.x += 1.0;
        b.aabbs[1].max.x += 1.0;
        let (sa, sb) = (Scene::build(&a), Scene::build(&b));
        match changed_box(&a, &sa, &b, &sb) {
            Change::Inside(bb) => {
                assert!((bb.min.x - 0.5).abs() < 1e-6 && (bb.max.x - 2.5).abs() < 1e-6);
                assert!(bb.max.z <= 1.0 + 1e-6);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(changed_box(&a, &sa, &a, &sa), Change::Nothing);
        let mut c = a.clone();
        c.simulation.gravity.y = -5.0;
        assert_eq!(changed_box(&a, &sa, &c, &sa), Change::Everything);
    }

    #[test]
    fn an_update_answers_as_a_fresh_bake() {
        let a = room("");
        let mut b = a.clone();
        b.aabbs[1].max.y = 1.2;
        let doc = Document::new(a, None);
        let mut o = NavOverlay::default();
        let scene = Arc::new(Scene::build(doc.level()));
        let first = o.request(&doc, scene).build();
        assert!(first.outcome.is_ok());
        o.accept(first);
        let doc_b = Document::new(b.clone(), None);
        let scene_b = Arc::new(Scene::build(&b));
        let built = o.request(&doc_b, scene_b.clone()).build();
        let data = built.outcome.as_ref().unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(data.made, Made::Updated(_)));
        let fresh = NavMap::build(&scene_b, &o.settings(&b));
        assert_eq!(data.map.places(0).len(), fresh.places(0).len());
        // Over the raised box, blocked now: around it.
        let (from, to) = (Vec3::new(0.0, 0.0, 0.0), Vec3::new(2.5, 0.0, 0.0));
        let p = data.map.path(0, from, to).map(|p| p.points.len());
        assert_eq!(p, fresh.path(0, from, to).map(|p| p.points.len()));
        assert!(p.is_some_and(|n| n > 2), "{p:?}");
    }

    /// On a map large enough for landmarks, a path asked for an agent whose landmarks are not made yet is
    /// found on the builder's thread (the next build, which keeps the map and makes them there), not by the
    /// interface's thread; once made, the next is asked at once.
    #[test]
    fn a_path_on_a_large_map_not_prepared_is_asked_on_the_builders_thread() {
        // A 36 m floor at quarter-metre cells: 20,736 places, just past the landmarks' threshold.
        let level = Level::from_ron_str(
            "(version: 2, aabbs: [(id: 1, min: (-18.0, -0.5, -18.0), max: (18.0, 0.0, 18.0))])",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let doc = Document::new(level, None);
        let scene = Arc::new(Scene::build(doc.level()));
        let mut o = NavOverlay::default();
        let mut request = o.request(&doc, scene.clone());
        request.agent = 1; // Out of range: nothing is prepared by the build.
        let built = request.build();
        assert!(built.outcome.is_ok());
        o.accept(built);
        assert!(!o.wants_build(&doc) && o.data().is_some_and(|d| !d.map.is_prepared(0)));
        let (from, to) = (Vec3::new(-17.0, 0.0, -17.0), Vec3::new(17.0, 0.0, 17.0));
        let said = o.ask(from, to);
        assert!(said.contains("finding"), "{said}");
        assert!(o.route.as_ref().is_some_and(|r| r.path.is_none()) && o.walker.is_none());
        assert!(o.is_asking() && o.wants_build(&doc));
        assert!(super::super::route_text(&o).contains("finding"));
        // The next build (what `refresh` starts): the same map kept, the path found there.
        let built = o.request(&doc, scene).build();
        let data = built.outcome.as_ref().unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(data.made, Made::Kept) && data.map.is_prepared(0));
        o.start(doc.key(), move || built);
        let began = Instant::now();
        while !o.poll() {
            assert!(
                began.elapsed() < Duration::from_secs(30),
                "the job never ended"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(!o.is_asking() && !o.wants_build(&doc));
        assert!(o.route.as_ref().is_some_and(|r| r.path.is_some()) && o.walker.is_some());
        // Prepared now: asked at once.
        let said = o.ask(to, from);
        assert!(o.route.as_ref().is_some_and(|r| r.path.is_some()), "{said}");
    }
}
