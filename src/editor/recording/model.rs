//! A game's recording opened in the editor (from a file or live from a running game): its frames, the frame
//! and query looked at, the query list's filter, and the recorded queries asked again of the edited level.
//! No egui here.

use crate::glam::{Vec2, Vec3};
use crate::level::{Level, ObjectId};
use crate::record::{Frame, QueryRecord, Recording};
use crate::scene::Scene;
use crate::shape::Sphere;

/// Where a recording came from.
#[derive(Clone, Debug, PartialEq)]
pub enum Origin {
    /// A file opened with File → Open Recording.
    File(std::path::PathBuf),
    /// A game streaming over the live link.
    Live(std::net::SocketAddr),
}

/// Which queries the list shows.
#[derive(Clone, Debug, PartialEq)]
pub struct QueryFilter {
    /// Shown kinds: ray, sweep, overlap, slide, character (the order of [`QueryRecord::KINDS`]).
    pub kinds: [bool; 5],
    /// Only queries whose answer names this object.
    pub object: Option<ObjectId>,
    /// Only queries that found nothing.
    pub nothing_only: bool,
    /// Only queries whose answer changed against the current level.
    pub changed_only: bool,
}

impl Default for QueryFilter {
    fn default() -> Self {
        Self {
            kinds: [true; 5],
            object: None,
            nothing_only: false,
            changed_only: false,
        }
    }
}

/// The index of a query kind in [`QueryFilter::kinds`].
#[must_use]
pub fn kind_index(q: &QueryRecord) -> usize {
    match q {
        QueryRecord::Ray { .. } => 0,
        QueryRecord::Sweep { .. } => 1,
        QueryRecord::Overlap { .. } => 2,
        QueryRecord::Slide { .. } => 3,
        QueryRecord::Character { .. } => 4,
    }
}

/// The recorded queries asked again of a level, built a slice at a time (a long recording takes many UI
/// frames), keyed by the document it was asked of.
#[derive(Debug)]
struct Reask {
    key: (u64, u64),
    scene: std::sync::Arc<Scene>,
    /// For each frame, the new answers so far (`None` while not yet asked).
    answers: Vec<Vec<QueryRecord>>,
    /// Next (frame, query) to ask.
    next: (usize, usize),
    done: bool,
    changed: Vec<Vec<bool>>,
    changed_count: usize,
}

/// A recording open in the editor.
#[derive(Debug)]
pub struct RecordingSession {
    /// Where it came from.
    pub origin: Origin,
    /// The level the game played (embedded in the recording).
    pub level: Level,
    /// The frames, ordered by index.
    pub frames: Vec<Frame>,
    /// Whether the file ended inside a frame.
    pub truncated: bool,
    /// The frame looked at (position in `frames`).
    pub cursor: usize,
    /// The query looked at (index in the current frame's queries).
    pub selected: Option<usize>,
    /// The query list's filter.
    pub filter: QueryFilter,
    /// A selected character move is shown (and drawn) as the edited level answers it now, not as the game
    /// made it.
    pub show_reasked: bool,
    reask: Option<Reask>,
}

impl RecordingSession {
    /// A session over a loaded recording, at its first frame.
    #[must_use]
    pub fn new(recording: Recording, origin: Origin) -> Self {
        Self {
            origin,
            level: recording.level,
            frames: recording.frames,
            truncated: recording.truncated,
            cursor: 0,
            selected: None,
            filter: QueryFilter::default(),
            show_reasked: false,
            reask: None,
        }
    }

    /// An empty live session for a game that just connected with its level.
    #[must_use]
    pub fn live(level: Level, addr: std::net::SocketAddr) -> Self {
        Self::new(
            Recording {
                level,
                frames: Vec::new(),
                truncated: false,
                version: crate::record::format::FORMAT_VERSION,
            },
            Origin::Live(addr),
        )
    }

    /// A frame arrived from the live link: appended, or replacing the frame with the same index (a game's
    /// `flush` sends its last frame early). Keeps the cursor on the newest frame when it was there.
    /// Returns whether the frame was new.
    pub fn push_live(&mut self, frame: Frame) -> bool {
        let at_end = self.cursor + 1 >= self.frames.len();
        let new = match self.frames.last() {
            Some(last) if last.index == frame.index => {
                if let Some(l) = self.frames.last_mut() {
                    *l = frame;
                }
                false
            }
            _ => {
                self.frames.push(frame);
                true
            }
        };
        if at_end {
            self.cursor = self.frames.len().saturating_sub(1);
        }
        // New frames are asked again too (the re-ask resumes where it stopped).
        if let Some(r) = &mut self.reask {
            r.done = false;
        }
        new
    }

    /// The frame looked at.
    #[must_use]
    pub fn frame(&self) -> Option<&Frame> {
        self.frames.get(self.cursor)
    }

    /// Move to frame position `pos` (clamped); the query selection is cleared.
    pub fn seek(&mut self, pos: usize) {
        let pos = pos.min(self.frames.len().saturating_sub(1));
        if pos != self.cursor {
            self.cursor = pos;
            self.selected = None;
        }
    }

    /// The workings of the selected query when it is a character move: as the game made it, or as the
    /// edited level answers it now (the Recording tab's choice).
    #[must_use]
    pub fn move_marks(&self) -> Option<crate::editor::character::MoveMarks> {
        let q = self.selected_query()?;
        let q = match self.selected.and_then(|i| self.reasked(self.cursor, i)) {
            Some(again) if self.show_reasked => again,
            _ => q,
        };
        match q {
            QueryRecord::Character {
                controller, result, ..
            } => Some(crate::editor::character::MoveMarks::of(controller, result)),
            _ => None,
        }
    }

    /// The selected query of the current frame.
    #[must_use]
    pub fn selected_query(&self) -> Option<&QueryRecord> {
        self.frame()?.queries.get(self.selected?)
    }

    /// The current frame's queries that pass the filter (indices into its queries).
    #[must_use]
    pub fn visible_queries(&self) -> Vec<usize> {
        let Some(frame) = self.frame() else {
            return Vec::new();
        };
        let f = &self.filter;
        frame
            .queries
            .iter()
            .enumerate()
            .filter(|(i, q)| {
                f.kinds[kind_index(q)]
                    && f.object.is_none_or(|id| q.objects().contains(&id))
                    && (!f.nothing_only || q.hit_nothing())
                    && (!f.changed_only || self.changed(self.cursor, *i))
            })
            .map(|(i, _)| i)
            .collect()
    }

    /// Every mark: (frame position, label).
    #[must_use]
    pub fn marks(&self) -> Vec<(usize, &str)> {
        self.frames
            .iter()
            .enumerate()
            .flat_map(|(k, f)| f.marks.iter().map(move |m| (k, m.as_str())))
            .collect()
    }

    /// Start (or keep) asking every recorded query again of `scene` (the edited level's), identified by
    /// `key` = (document id, revision): a new key starts over, the same key keeps what is done.
    pub fn reask_against(&mut self, scene: std::sync::Arc<Scene>, key: (u64, u64)) {
        if self.reask.as_ref().is_some_and(|r| r.key == key) {
            return;
        }
        self.reask = Some(Reask {
            key,
            scene,
            answers: self.frames.iter().map(|_| Vec::new()).collect(),
            next: (0, 0),
            done: false,
            changed: self.frames.iter().map(|_| Vec::new()).collect(),
            changed_count: 0,
        });
    }

    /// Stop comparing with a level (back to the recording alone).
    pub fn clear_reask(&mut self) {
        self.reask = None;
    }

    /// Ask up to `budget` more queries; returns whether every query has been asked.
    pub fn reask_step(&mut self, budget: usize) -> bool {
        let Some(r) = &mut self.reask else {
            return true;
        };
        if r.done {
            return true;
        }
        r.answers.resize_with(self.frames.len(), Vec::new);
        r.changed.resize_with(self.frames.len(), Vec::new);
        let mut left = budget;
        while left > 0 {
            let (f, q) = r.next;
            let Some(frame) = self.frames.get(f) else {
                r.done = true;
                break;
            };
            let Some(query) = frame.queries.get(q) else {
                r.next = (f + 1, 0);
                continue;
            };
            if !(frame.scene_times.is_empty() && frame.mover_starts.is_empty()) {
                // The edited level's movers where the game had them for this query (its scene time, their
                // starts): the scene is copied once, the first time.
                frame.pose_scene(std::sync::Arc::make_mut(&mut r.scene), q);
            }
            let again = query.rerun(&r.scene);
            let changed = !query.same_answer(&again);
            r.changed_count += usize::from(changed);
            r.changed[f].push(changed);
            r.answers[f].push(again);
            r.next = (f, q + 1);
            left -= 1;
        }
        r.done
    }

    /// Progress of the re-ask: (asked, total), or `None` when not comparing.
    #[must_use]
    pub fn reask_progress(&self) -> Option<(usize, usize)> {
        let r = self.reask.as_ref()?;
        let total = self.frames.iter().map(|f| f.queries.len()).sum();
        let asked = r.answers.iter().map(Vec::len).sum();
        Some((asked, total))
    }

    /// Whether the query's answer changed against the level re-asked (false while not yet asked).
    #[must_use]
    pub fn changed(&self, frame: usize, query: usize) -> bool {
        self.reask
            .as_ref()
            .and_then(|r| r.changed.get(frame)?.get(query).copied())
            .unwrap_or(false)
    }

    /// The new answer of a query against the level re-asked, once asked.
    #[must_use]
    pub fn reasked(&self, frame: usize, query: usize) -> Option<&QueryRecord> {
        self.reask.as_ref()?.answers.get(frame)?.get(query)
    }

    /// Frames (positions) with at least one changed answer.
    #[must_use]
    pub fn changed_frames(&self) -> Vec<usize> {
        let Some(r) = &self.reask else {
            return Vec::new();
        };
        r.changed
            .iter()
            .enumerate()
            .filter(|(_, c)| c.iter().any(|&x| x))
            .map(|(k, _)| k)
            .collect()
    }

    /// How many answers changed so far.
    #[must_use]
    pub fn changed_count(&self) -> usize {
        self.reask.as_ref().map_or(0, |r| r.changed_count)
    }

    /// The balls of the frame's last recorded step (the game's own simulation), if any.
    #[must_use]
    pub fn balls(&self) -> Option<&[crate::sim::Ball]> {
        self.frame()?.steps.last().map(|s| s.balls.as_slice())
    }
}

/// What a recorded query looks like, for both views: segments, points, spheres and arrows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct QueryShape {
    /// Line segments (the ray up to its hit or its length, the slide's path).
    pub lines: Vec<(Vec3, Vec3)>,
    /// Points (hit and contact points).
    pub points: Vec<Vec3>,
    /// Spheres (the swept sphere at its start and at contact, the overlap sphere).
    pub spheres: Vec<Sphere>,
    /// Normals as (from, to).
    pub arrows: Vec<(Vec3, Vec3)>,
}

/// The geometry of a recorded query. `y` lifts the top-down slide to a height (the floor at 0).
#[must_use]
pub fn query_shape(q: &QueryRecord, y: f32) -> QueryShape {
    let mut s = QueryShape::default();
    let finite = |v: Vec3| v.is_finite();
    match q {
        QueryRecord::Ray { ray, max_t, hit } => {
            let len = hit.map_or(*max_t, |h| h.t);
            // An unbounded miss is drawn 100 m long.
            let len = if len.is_finite() {
                len
            } else {
                100.0 / ray.dir.length().max(1e-6)
            };
            let end = ray.origin + ray.dir * len;
            if finite(ray.origin) && finite(end) {
                s.lines.push((ray.origin, end));
            }
            if let Some(h) = hit {
                s.points.push(h.point);
                s.arrows.push((h.point, h.point + h.normal * 0.5));
            }
        }
        QueryRecord::Sweep {
            sphere,
            motion,
            toi,
        } => {
            s.spheres.push(*sphere);
            let t = toi.map_or(1.0, |c| c.t);
            let at = sphere.center + *motion * t;
            s.lines.push((sphere.center, sphere.center + *motion));
            if let Some(c) = toi {
                s.spheres.push(Sphere::new(at, sphere.radius));
                s.points.push(c.point);
                s.arrows.push((c.point, c.point + c.normal * 0.5));
            }
        }
        QueryRecord::Overlap { sphere, .. } => s.spheres.push(*sphere),
        QueryRecord::Slide {
            from,
            radius,
            motion,
            end,
        } => {
            let lift = |p: Vec2| Vec3::new(p.x, y, p.y);
            s.lines.push((lift(*from), lift(*from + *motion)));
            s.lines.push((lift(*from), lift(*end)));
            s.points.push(lift(*end));
            if *radius > 0.0 {
                s.spheres.push(Sphere::new(lift(*end), *radius));
            }
        }
        QueryRecord::Character {
            controller,
            feet,
            motion,
            result,
        } => {
            // The motion asked for, the way the feet went, and the body where it ended (its capsule's end
            // spheres joined by lines); the ground and every hit with their normals.
            s.lines.push((*feet, *feet + *motion));
            s.lines.push((*feet, result.feet));
            s.points.push(result.feet);
            let body = controller.capsule(result.feet);
            if body.radius > 0.0 && body.radius.is_finite() {
                s.spheres.push(Sphere::new(body.a, body.radius));
                s.spheres.push(Sphere::new(body.b, body.radius));
                for side in [Vec3::X, Vec3::NEG_X, Vec3::Z, Vec3::NEG_Z] {
                    let o = side * body.radius;
                    s.lines.push((body.a + o, body.b + o));
                }
            }
            for (point, normal) in result
                .ground
                .iter()
                .map(|g| (g.point, g.normal))
                .chain(result.hits.iter().map(|h| (h.point, h.normal)))
            {
                s.points.push(point);
                s.arrows.push((point, point + normal * 0.5));
            }
        }
    }
    s.lines.retain(|(a, b)| finite(*a) && finite(*b));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Recorder, RecorderConfig};
    use crate::shape::Ray;

    fn session() -> (RecordingSession, Level) {
        let level = Level::from_ron_str(
            "(version: 2, walls: [(id: 1, a: (-5.0, 2.0), b: (5.0, 2.0), radius: 0.25)],
              triggers: [])",
        )
        .unwrap();
        let scene = Scene::from_level(&level).unwrap();
        let mut rec = Recorder::new(RecorderConfig::default(), &level);
        for f in 0..3 {
            rec.begin_frame(f64::from(f));
            rec.cast_ray(&scene, &Ray::new(Vec3::new(0.0, 1.0, 0.0), Vec3::Z), 10.0);
            rec.cast_ray(&scene, &Ray::new(Vec3::new(0.0, 1.0, 0.0), -Vec3::Z), 10.0);
            rec.move_and_slide(&scene, Vec2::ZERO, 0.3, Vec2::new(0.0, 5.0));
            if f == 1 {
                rec.mark("here");
            }
        }
        let recording = Recording::from_bytes(&rec.to_bytes()).unwrap();
        (
            RecordingSession::new(recording, Origin::File("x.crec".into())),
            level,
        )
    }

    #[test]
    fn filters_pick_kinds_objects_and_misses() {
        let (mut s, _) = session();
        assert_eq!(s.visible_queries(), [0, 1, 2]);
        s.filter.kinds = [false, true, true, true, true];
        assert_eq!(s.visible_queries(), [2]);
        s.filter = QueryFilter {
            object: Some(ObjectId(1)),
            ..QueryFilter::default()
        };
        assert_eq!(s.visible_queries(), [0]);
        s.filter = QueryFilter {
            nothing_only: true,
            ..QueryFilter::default()
        };
        assert_eq!(s.visible_queries(), [1]);
        assert_eq!(s.marks(), [(1, "here")]);
    }

    #[test]
    fn reask_flags_answers_that_changed_and_restarts_on_a_new_revision() {
        let (mut s, level) = session();
        s.reask_against(std::sync::Arc::new(Scene::build(&level)), (1, 1));
        while !s.reask_step(2) {}
        assert_eq!(s.reask_progress(), Some((9, 9)));
        assert_eq!(s.changed_count(), 0);
        // Move the wall further away: every ray hit and every slide changes; the misses do not.
        let mut moved = level.clone();
        moved.walls[0].a.y = 3.0;
        moved.walls[0].b.y = 3.0;
        s.reask_against(std::sync::Arc::new(Scene::build(&moved)), (1, 2));
        assert_eq!(s.reask_progress(), Some((0, 9)));
        while !s.reask_step(4) {}
        assert_eq!(s.changed_count(), 6);
        assert_eq!(s.changed_frames(), [0, 1, 2]);
        assert!(s.changed(0, 0) && !s.changed(0, 1) && s.changed(0, 2));
        s.filter.changed_only = true;
        assert_eq!(s.visible_queries(), [0, 2]);
        // The same key keeps the work done.
        s.reask_against(std::sync::Arc::new(Scene::build(&moved)), (1, 2));
        assert_eq!(s.reask_progress(), Some((9, 9)));
    }

    #[test]
    fn live_frames_append_or_replace_and_follow_the_newest() {
        let (s, level) = session();
        let mut live = RecordingSession::live(level, "127.0.0.1:1".parse().unwrap());
        for f in &s.frames {
            assert!(live.push_live(f.clone()));
        }
        assert_eq!(live.cursor, 2);
        let mut again = s.frames[2].clone();
        again.marks.push("late".into());
        assert!(!live.push_live(again));
        assert_eq!(live.frames.len(), 3);
        assert_eq!(live.frames[2].marks, ["late"]);
    }

    #[test]
    fn a_frame_with_steps_has_the_game_balls() {
        let level = Level::from_ron_str(include_str!("../../../levels/magic_room.ron")).unwrap();
        let mut world = crate::sim::World::from_level(&level).unwrap();
        let mut rec = Recorder::new(RecorderConfig::default(), &level);
        rec.begin_frame(0.0);
        let report = world.step(1.0 / 60.0);
        rec.record_step(&world, &report);
        let recording = Recording::from_bytes(&rec.to_bytes()).unwrap();
        let s = RecordingSession::new(recording, Origin::File("m.crec".into()));
        assert_eq!(s.balls().unwrap(), world.balls());
    }

    #[test]
    fn query_shapes_draw_rays_to_their_hit() {
        let (s, _) = session();
        let f = &s.frames[0];
        let hit = query_shape(&f.queries[0], 0.0);
        assert_eq!(hit.lines[0].1.z, 1.75);
        assert_eq!(hit.points.len(), 1);
        let miss = query_shape(&f.queries[1], 0.0);
        assert_eq!(miss.lines[0].1.z, -10.0);
        assert!(miss.points.is_empty());
        let slide = query_shape(&f.queries[2], 0.5);
        assert_eq!(slide.lines.len(), 2);
        assert_eq!(slide.points[0].y, 0.5);
    }

    #[test]
    fn a_character_move_draws_its_path_body_and_ground() {
        let level =
            Level::from_ron_str("(version: 2, planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: 0.0)])")
                .unwrap_or_default();
        let scene = Scene::from_level(&level).unwrap_or_else(|_| unreachable!());
        let c = crate::character::CharacterController::default();
        let mut rec = Recorder::new(RecorderConfig::default(), &level);
        let feet = Vec3::new(0.0, c.skin, 0.0);
        let m = rec.move_character(&scene, &c, feet, Vec3::new(0.5, -0.01, 0.0));
        let r = Recording::from_bytes(&rec.to_bytes()).unwrap_or_else(|_| unreachable!());
        let q = &r.frames[0].queries[0];
        assert_eq!(kind_index(q), 4);
        let shape = query_shape(q, 0.0);
        // The motion asked for, the way gone, the body's four sides; its two end spheres; the feet and the
        // ground point with its normal.
        assert_eq!(shape.lines.len(), 6);
        assert_eq!(shape.lines[1], (feet, m.feet));
        assert_eq!(shape.spheres.len(), 2);
        assert_eq!(shape.spheres[0].center, c.capsule(m.feet).a);
        assert!(m.grounded);
        assert_eq!(shape.points.len(), 2 + m.hits.len());
        assert_eq!(shape.arrows.len(), 1 + m.hits.len());
    }
}
