//! A level as a game queries it: every static object in one acceleration structure, each answer naming the
//! [`ObjectId`] it hit.
//!
//! [`Scene::from_level`] (an adapter in `level/scene.rs`: the scene itself knows nothing of levels, and
//! [`Scene::from_objects`] builds one from shapes alone) takes the level's planes, cylinders, triangles, axis-aligned and oriented boxes, walls
//! (extruded from the floor to their height, exactly as [`Static::Wall`]) and meshes; balls are dynamic and
//! stay out (the simulation's [`crate::sim::World`] moves them). Bounded objects go into one
//! [`AabbTree`] built once (each box padded by a few ulps, so the tree never prunes a hit that an object's own
//! query finds on its boundary); unbounded planes are tested always; the walls also go into a [`WallGrid`] for
//! top-down [`Scene::move_and_slide`]. Rays meet the walls along that grid's cells (nearest cells first, stopping
//! at the first cell past the nearest hit) and the other objects through a tree of their own, unless the walls
//! crowd into few cells, when the one tree serves; either way the answer is the same (tested against brute
//! force on mazes with rays along cell lines, through lattice corners and at wall ends).
//!
//! Every answer equals the per-shape queries of [`crate::query`] and [`TriMesh`] over all the objects:
//! - [`Scene::cast_ray`]: the smallest `t`; ties go to the lowest [`ObjectId`].
//! - [`Scene::sweep_sphere`]: the smallest time of impact; ties go to the lowest id.
//! - [`Scene::overlap_sphere`]: every object touched, ids ascending.
//! - [`Scene::move_and_slide`]: [`crate::walls::move_and_slide`] over the level's walls.
//!
//! ```
//! use collidoscope::glam::Vec3;
//! use collidoscope::level::{Level, ObjectId};
//! use collidoscope::scene::Scene;
//! use collidoscope::shape::{Ray, Sphere};
//!
//! let level = Level::from_ron_str(r#"(version: 1, name: "floor and crate",
//!     planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: 0.0)],
//!     aabbs: [(id: 2, min: (4.0, 0.0, -1.0), max: (6.0, 2.0, 1.0))])"#).unwrap();
//! let scene = Scene::from_level(&level).unwrap();
//! // Along +x at y = 1: the crate's face x = 4.
//! let hit = scene.cast_ray(&Ray::new(Vec3::new(0.0, 1.0, 0.0), Vec3::X), 100.0).unwrap();
//! assert_eq!((hit.object, hit.t, hit.normal), (ObjectId(2), 4.0, -Vec3::X));
//! // A ball of radius 0.5 resting on the floor touches it, and only it.
//! assert_eq!(scene.overlap_sphere(&Sphere::new(Vec3::new(0.0, 0.5, 0.0), 0.5)), vec![ObjectId(1)]);
//! ```

use std::any::Any;
use std::collections::HashMap;
use std::sync::Arc;

use glam::{DVec2, Vec2, Vec3, Vec3A};
use serde::{Deserialize, Serialize};

use crate::bvh::{AabbTree, Slab};
use crate::id::ObjectId;
#[cfg(doc)]
use crate::mesh::TriMesh;
#[cfg(doc)]
use crate::query::overlap;
use crate::query::ray;
use crate::shape::{Aabb, Capsule, Ray, Sphere, Wall};
pub use crate::statics::Static;
use crate::trigger::TriggerVolume;

mod moving;
mod near;
pub(crate) use near::NearScene;
mod one_way;
use crate::walls::WallGrid;
pub use moving::MoverInfo;
pub(crate) use moving::MoverSetup;
pub use one_way::ONE_WAY_TOLERANCE;
use one_way::Probe;

/// The nearest object a ray meets.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SceneHit {
    /// The object hit.
    pub object: ObjectId,
    /// The ray parameter of the hit, in units of the ray's `dir`.
    pub t: f32,
    /// The hit point.
    pub point: Vec3,
    /// Unit normal of the surface hit, facing against the ray.
    pub normal: Vec3,
}

/// The first object a moving sphere touches.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SceneToi {
    /// The object touched.
    pub object: ObjectId,
    /// The fraction of the motion at first contact, in `[0, 1]`.
    pub t: f32,
    /// The contact point, on the object.
    pub point: Vec3,
    /// Unit normal from the object toward the sphere.
    pub normal: Vec3,
}

/// Every static object of a level, ready for whole-level queries. Built once; cheap to query from many
/// threads (`&self` everywhere).
#[derive(Clone, Debug, Default)]
pub struct Scene {
    shapes: Vec<Static>,
    ids: Vec<ObjectId>,
    /// Bounded objects (item `i` is `shapes[i]`; unbounded ones are left out of it).
    tree: AabbTree,
    /// The tree's box of each object (padded; NaN for planes and invalid geometry, which it never returns).
    boxes: Vec<Aabb>,
    /// Counts the rebuilds of the structures, so caches of query answers know when they are stale.
    generation: u64,
    /// Entries without bounds (planes), tested by every query.
    unbounded: Vec<u32>,
    /// The plane of each unbounded entry, for the simulation's quick test.
    planes: Vec<PlaneTest>,
    /// The level's walls for top-down movement, in level order.
    walls: WallGrid,
    /// Rays meet walls through `walls`' cells rather than the tree (when the walls spread over the grid).
    ray_walls: Option<RayWalls>,
    by_id: HashMap<ObjectId, u32>,
    /// What the front end that built the scene noted about it, opaque here: the level adapter
    /// (`level/scene.rs`) keeps the objects it left out in it, for `Scene::skipped`.
    notes: Option<Arc<dyn Any + Send + Sync>>,
    /// Objects were added since the structures were built (the simulation adds them one by one).
    dirty: bool,
    /// Trigger volumes (not obstacles: no ray, sweep or overlap query sees them).
    triggers: Vec<TriggerVolume>,
    /// For each object, its position among the triangles (`u32::MAX` for other kinds): the walker's
    /// `Blocker::Triangle` numbering.
    triangle_ordinal: Vec<u32>,
    /// The movers and their moved objects (kept out of `tree`: see `scene/moving.rs`).
    moving: moving::MovingSet,
    /// Which objects are one-way surfaces (see `scene/one_way.rs`).
    one_way: one_way::OneWay,
}

/// How [`Scene::cast_ray`] meets the walls: along the cells of the wall grid (a 2D walk that stops at the
/// first cell past the nearest hit, where the tree descends a dozen levels from its root for every ray),
/// and everything else through a tree of its own.
#[derive(Clone, Debug, Default)]
struct RayWalls {
    /// The scene index of each wall of the grid, in grid order.
    objects: Vec<u32>,
    /// The padded box of each wall of the grid (the scene's), in grid order and SIMD lanes.
    boxes: Vec<(Vec3A, Vec3A)>,
    /// The tree of the bounded objects that are not walls.
    others: AabbTree,
    /// The highest wall top (walls stand on `y = 0`): a ray is among the walls only where `y` is in
    /// `0..=top`.
    top: f32,
}

/// The most walls in one grid cell for rays to walk the grid (more, and the tree's finer boxes win).
const RAY_GRID_MAX_CELL: usize = 48;

/// The most columns plus rows for rays to walk the grid: a ray that meets nothing crosses about that many
/// cells (walls strung along one long line make a grid of 65,536 columns and one row, where a ray along the
/// line would walk them all; the tree answers it in a few dozen boxes).
const RAY_GRID_MAX_ACROSS: usize = 4_096;

/// A box padded by a few ulps of its coordinates (and of 1), so rounding in the tree's slab test can never
/// exclude a point on the object's surface.
fn padded(b: Aabb) -> Aabb {
    let mag = b.min.abs().max(b.max.abs()).max(Vec3::ONE);
    let pad = mag * (8.0 * f32::EPSILON);
    Aabb::new(b.min - pad, b.max + pad)
}

/// An unbounded entry's plane, ready for [`PlaneTest::clear_of`] (a non-plane entry gets one that never
/// rules anything out).
#[derive(Clone, Copy, Debug)]
struct PlaneTest {
    normal: Vec3,
    abs_normal: Vec3,
    d: f32,
    /// `|d| + 1`, the part of the margin that does not depend on the box.
    base: f32,
}

impl PlaneTest {
    fn new(shape: &Static) -> Self {
        match shape {
            Static::Plane(p) => Self {
                normal: p.normal,
                abs_normal: p.normal.abs(),
                d: p.d,
                base: p.d.abs() + 1.0,
            },
            _ => Self {
                normal: Vec3::NAN,
                abs_normal: Vec3::NAN,
                d: f32::NAN,
                base: f32::NAN,
            },
        }
    }

    /// Whether the box of centre `center`, half extents `half` and `extent = |center| + half` lies in one open
    /// side of the plane, clear of it by a margin far larger than the rounding of this test and of the box
    /// (`1e-5` of the coordinates' magnitude): then no sphere inside the box, still or moving inside it,
    /// touches the plane, and the plane's own sweep and overlap answer `None` / `false`. A NaN anywhere gives
    /// `false` (the plane is not ruled out).
    #[inline]
    fn clear_of(&self, center: Vec3, half: Vec3, extent: Vec3) -> bool {
        let dist = self.normal.dot(center) - self.d;
        let reach = self.abs_normal.dot(half);
        let margin = 1e-5 * (self.abs_normal.dot(extent) + self.base);
        dist.abs() > reach + margin
    }
}

/// `(t, id)` ordering: smaller `t` first, then the lower id.
fn better(t: f32, id: ObjectId, best: Option<(f32, ObjectId)>) -> bool {
    best.is_none_or(|(bt, bid)| t < bt || (t == bt && id < bid))
}

impl Scene {
    /// The triggers a game's own mover (a sphere) is in: every trigger volume it touches or overlaps, ids
    /// ascending. Triggers are not obstacles: the other queries never see them.
    ///
    /// ```
    /// use collidoscope::{glam::Vec3, level::{Level, ObjectId}, scene::Scene, shape::Sphere};
    /// let level = Level::from_ron_str(r#"(version: 2, triggers: [
    ///     (id: 13, name: "exit", shape: Aabb((min: (8.0, 0.0, -1.0), max: (10.0, 2.5, 1.0)))),
    /// ])"#).unwrap();
    /// let scene = Scene::from_level(&level).unwrap();
    /// assert_eq!(scene.triggers_at(&Sphere::new(Vec3::new(7.5, 1.0, 0.0), 0.5)), vec![ObjectId(13)]);
    /// assert!(scene.triggers_at(&Sphere::new(Vec3::new(7.4, 1.0, 0.0), 0.5)).is_empty());
    /// ```
    #[must_use]
    pub fn triggers_at(&self, sphere: &Sphere) -> Vec<ObjectId> {
        let mut out: Vec<ObjectId> = self
            .triggers
            .iter()
            .filter(|t| t.overlaps(sphere))
            .map(|t| t.id)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The triggers a capsule (a character's body) is in: every trigger volume it touches or overlaps, ids
    /// ascending. Exact: a capsule is the volume a sphere of its radius sweeps from `a` to `b`, and each volume
    /// answers the parts of that sweep during which the sphere overlaps it ([`TriggerVolume::intervals`]). A
    /// capsule with `a == b` is its sphere ([`Scene::triggers_at`]); an invalid one is in nothing.
    ///
    /// ```
    /// use collidoscope::{glam::Vec3, level::{Level, ObjectId}, scene::Scene, shape::Capsule};
    /// let level = Level::from_ron_str(r#"(version: 2, triggers: [
    ///     (id: 13, name: "exit", shape: Aabb((min: (8.0, 0.0, -1.0), max: (10.0, 2.5, 1.0)))),
    ///     (id: 4, name: "lamp", shape: Sphere((center: (7.5, 2.8, 0.0), radius: 0.5))),
    /// ])"#).unwrap();
    /// let scene = Scene::from_level(&level).unwrap();
    /// // An upright body of radius 0.3 standing at x = 7.75: its side reaches the box, its head the lamp.
    /// let body = Capsule::new(Vec3::new(7.75, 0.3, 0.0), Vec3::new(7.75, 2.4, 0.0), 0.3);
    /// assert_eq!(scene.triggers_at_capsule(&body), vec![ObjectId(4), ObjectId(13)]);
    /// let lower = Capsule::new(Vec3::new(7.75, 0.3, 0.0), Vec3::new(7.75, 1.5, 0.0), 0.3);
    /// assert_eq!(scene.triggers_at_capsule(&lower), vec![ObjectId(13)]);
    /// ```
    #[must_use]
    pub fn triggers_at_capsule(&self, capsule: &Capsule) -> Vec<ObjectId> {
        if !capsule.is_valid() {
            return Vec::new();
        }
        let (a, b, r) = (capsule.a, capsule.b, capsule.radius);
        let mut out: Vec<ObjectId> = self
            .triggers
            .iter()
            .filter(|t| {
                if a == b {
                    t.overlaps(&Sphere::new(a, r))
                } else {
                    !t.intervals(a, b, r).is_empty()
                }
            })
            .map(|t| t.id)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The trigger volumes.
    #[must_use]
    pub fn triggers(&self) -> &[TriggerVolume] {
        &self.triggers
    }

    /// A scene of the given objects (ids need not be unique, but answers name only the id given).
    #[must_use]
    pub fn from_objects(objects: impl IntoIterator<Item = (ObjectId, Static)>) -> Scene {
        Scene::from_parts(objects.into_iter().collect(), Vec::new(), None)
    }

    /// A scene of the given objects and trigger volumes, with a front end's notes (opaque here; the level
    /// adapter keeps the objects it left out in them).
    pub(crate) fn from_parts(
        statics: Vec<(ObjectId, Static)>,
        triggers: Vec<TriggerVolume>,
        notes: Option<Arc<dyn Any + Send + Sync>>,
    ) -> Scene {
        let (ids, shapes) = statics.into_iter().unzip();
        let mut scene = Scene {
            shapes,
            ids,
            triggers,
            notes,
            dirty: true,
            ..Scene::default()
        };
        scene.refresh();
        scene
    }

    /// The front end's notes of type `T`, if it left some.
    pub(crate) fn notes<T: Any>(&self) -> Option<&T> {
        self.notes.as_deref()?.downcast_ref()
    }

    /// Add an object; the structures are rebuilt by the next [`Scene::refresh`] (the simulation adds its
    /// statics one by one and refreshes before a step).
    pub(crate) fn push(&mut self, id: ObjectId, shape: Static) {
        self.ids.push(id);
        self.shapes.push(shape);
        self.dirty = true;
    }

    /// Rebuild the tree, the plane list, the wall grid and the id index after objects were added.
    pub(crate) fn refresh(&mut self) {
        if !self.dirty {
            return;
        }
        let nan = Aabb::new(Vec3::NAN, Vec3::NAN);
        self.unbounded.clear();
        let boxes: Vec<Aabb> = self
            .shapes
            .iter()
            .enumerate()
            .map(|(i, s)| match (s, s.bounds()) {
                (Static::Plane(_), _) => {
                    self.unbounded.push(i as u32);
                    nan
                }
                (_, Some(b)) => padded(b),
                // Invalid geometry: never hit, so it need not be found.
                (_, None) => nan,
            })
            .collect();
        self.tree = AabbTree::new(&self.moving.static_boxes(&boxes));
        self.moving.rebuild(&boxes, boxes.len());
        self.boxes = boxes;
        self.planes = self
            .unbounded
            .iter()
            .map(|&i| PlaneTest::new(&self.shapes[i as usize]))
            .collect();
        self.generation += 1;
        self.walls = WallGrid::new(self.shapes.iter().filter_map(|s| match s {
            Static::Wall { wall, .. } => Some(*wall),
            _ => None,
        }));
        self.ray_walls = self.ray_walls_for();
        let mut next = 0u32;
        self.triangle_ordinal = self
            .shapes
            .iter()
            .map(|s| {
                if matches!(s, Static::Triangle(_)) {
                    next += 1;
                    next - 1
                } else {
                    u32::MAX
                }
            })
            .collect();
        self.by_id = self
            .ids
            .iter()
            .enumerate()
            .rev()
            .map(|(i, id)| (*id, i as u32))
            .collect();
        self.dirty = false;
    }

    /// The walls' part of [`Scene::cast_ray`] through the grid, when the grid suits it (see [`RayWalls`]).
    fn ray_walls_for(&self) -> Option<RayWalls> {
        if self.walls.is_empty()
            || self.walls.max_cell_len() > RAY_GRID_MAX_CELL
            || self.walls.cells_across() > RAY_GRID_MAX_ACROSS
        {
            return None;
        }
        let mut objects = Vec::with_capacity(self.walls.len());
        let mut boxes = Vec::with_capacity(self.walls.len());
        let mut top = 0.0f32;
        let mut others = self.moving.static_boxes(&self.boxes).into_owned();
        for (i, s) in self.shapes.iter().enumerate() {
            if let Static::Wall { height, .. } = s {
                objects.push(i as u32);
                let b = &self.boxes[i];
                boxes.push((Vec3A::from(b.min), Vec3A::from(b.max)));
                if height.is_finite() {
                    top = top.max(*height);
                }
                others[i] = Aabb::new(Vec3::NAN, Vec3::NAN);
            }
        }
        Some(RayWalls {
            objects,
            boxes,
            others: AabbTree::new(&others),
            top,
        })
    }

    /// Every object that may touch the box `lo..=hi` (planes unless the box is clear of them by a margin; the
    /// rest by their padded bounds), as indices into [`Scene::shapes`], planes first, then in tree order.
    pub(crate) fn candidates(&self, lo: Vec3, hi: Vec3, mut f: impl FnMut(usize)) {
        self.unbounded_candidates(lo, hi, &mut f);
        self.moving_query(lo, hi, &mut f);
        self.tree.query(lo, hi, f);
    }

    /// [`Scene::candidates`] as objects: the id and the shape of every object that may touch the box `lo..=hi`.
    pub(crate) fn objects_in_box(&self, lo: Vec3, hi: Vec3, mut f: impl FnMut(ObjectId, &Static)) {
        self.candidates(lo, hi, |i| f(self.ids[i], &self.shapes[i]));
    }

    /// The planes of [`Scene::candidates`]: those the box `lo..=hi` is not clear of.
    pub(crate) fn unbounded_candidates(&self, lo: Vec3, hi: Vec3, mut f: impl FnMut(usize)) {
        let center = (lo + hi) * 0.5;
        let half = (hi - lo) * 0.5;
        let extent = center.abs() + half;
        for (&i, p) in self.unbounded.iter().zip(&self.planes) {
            if !p.clear_of(center, half, extent) {
                f(i as usize);
            }
        }
    }

    /// The bounded objects of [`Scene::candidates`]: those whose padded box touches `lo..=hi`, in tree order.
    pub(crate) fn bounded_candidates(&self, lo: Vec3, hi: Vec3, mut f: impl FnMut(usize)) {
        self.moving_query(lo, hi, &mut f);
        self.tree.query(lo, hi, f);
    }

    /// Object `i`'s padded box as the tree holds it (NaN for planes and invalid geometry, which it never
    /// returns): [`Scene::bounded_candidates`] returns `i` when `min <= hi && max >= lo` on every axis.
    #[inline]
    pub(crate) fn padded_box(&self, i: usize) -> (Vec3, Vec3) {
        let b = &self.boxes[i];
        (b.min, b.max)
    }

    /// Counts the rebuilds of the structures ([`Scene::refresh`]): answers cached under one generation stay
    /// right while it lasts.
    #[allow(dead_code)] // The simulation's statics cache keys on its own count now; kept for such caches.
    pub(crate) fn generation(&self) -> u64 {
        self.generation
    }

    /// The triangles whose bounds touch the box `lo..=hi`, as (position among the scene's triangles, triangle),
    /// in that order.
    #[must_use]
    pub fn triangles_near(&self, lo: Vec3, hi: Vec3) -> Vec<(usize, crate::shape::Triangle)> {
        let mut out = Vec::new();
        let mut add = |i: usize| {
            if let Static::Triangle(t) = &self.shapes[i] {
                out.push((self.triangle_ordinal[i] as usize, *t));
            }
        };
        self.moving_query(lo, hi, &mut add);
        self.tree.query(lo, hi, add);
        out.sort_unstable_by_key(|(k, _)| *k);
        out
    }

    /// The objects' shapes, in order (the simulation's static indices).
    #[must_use]
    pub fn shapes(&self) -> &[Static] {
        &self.shapes
    }

    /// The objects' ids, in the order of [`Scene::shapes`].
    #[must_use]
    pub fn ids(&self) -> &[ObjectId] {
        &self.ids
    }

    /// Number of objects.
    #[must_use]
    pub fn len(&self) -> usize {
        self.shapes.len()
    }

    /// Whether the scene holds no object.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.shapes.is_empty()
    }

    /// Every object with its id, in the simulation's order.
    pub fn objects(&self) -> impl ExactSizeIterator<Item = (ObjectId, &Static)> + '_ {
        self.ids.iter().copied().zip(&self.shapes)
    }

    /// The object with this id.
    #[must_use]
    pub fn object(&self, id: ObjectId) -> Option<&Static> {
        self.by_id.get(&id).map(|&i| &self.shapes[i as usize])
    }

    /// The box around every bounded object (planes are unbounded and left out), or `None` when there is none.
    #[must_use]
    pub fn bounds(&self) -> Option<Aabb> {
        let mut out: Option<Aabb> = None;
        for b in self.boxes.iter().filter(|b| b.is_valid()) {
            out = Some(match out {
                None => *b,
                Some(o) => o.union(b),
            });
        }
        out
    }

    /// The level's walls (top-down) in level order, as used by [`Scene::move_and_slide`].
    #[must_use]
    pub fn walls(&self) -> &WallGrid {
        &self.walls
    }

    /// The nearest object hit by `ray` with `t <= max_t`.
    ///
    /// `t` and `normal` are those of the object's own query ([`ray::ray_plane`], [`ray::ray_cylinder`],
    /// [`ray::ray_triangle`], [`ray::ray_aabb`], [`ray::ray_obb`], [`ray::ray_wall`], [`TriMesh::cast_ray`],
    /// with `point = origin + t * dir` for a mesh), and no object's own query hits earlier; equal `t` goes to
    /// the lower id. An invalid ray or a NaN or negative `max_t` gives `None`.
    #[must_use]
    pub fn cast_ray(&self, ray: &Ray, max_t: f32) -> Option<SceneHit> {
        if !ray.is_valid() || !(max_t >= 0.0) {
            return None;
        }
        let mut best: Option<SceneHit> = None;
        let mut consider = |i: usize| -> Option<f32> {
            let (id, shape) = (self.ids[i], &self.shapes[i]);
            let bound = best.map_or(max_t, |b| b.t);
            // Walls (most of a large level): the entry `t` first, the normal only for a possible winner.
            let h = if let Static::Wall { wall, height } = shape {
                let e = ray::wall_entry(ray, wall, *height, bound)?;
                if !better(e.t(), id, best.map(|b| (b.t, b.object))) {
                    return Some(e.t());
                }
                ray::wall_hit(ray, wall, &e)?
            } else {
                shape.cast_ray(ray, bound)?
            };
            if self.one_way.is(i) && !one_way::ray_counts(ray, h.normal) {
                return None;
            }
            if better(h.t, id, best.map(|b| (b.t, b.object))) {
                best = Some(SceneHit {
                    object: id,
                    t: h.t,
                    point: h.point,
                    normal: h.normal,
                });
            }
            Some(h.t)
        };
        let mut start = max_t;
        for &i in &self.unbounded {
            if let Some(t) = consider(i as usize) {
                start = start.min(t);
            }
        }
        // The moved objects last, below the static structures' nearest hit (`low` follows every answer).
        let low = std::cell::Cell::new(start);
        let mut consider = moving::lowest(&low, consider);
        if let Some(rw) = &self.ray_walls {
            // The walls along the grid's cells (each wall's box first), then the other objects' tree.
            let mut bound = start;
            if let Some((t0, t1)) = y_interval(ray, rw.top, bound) {
                let slab = Slab::new(ray.origin, ray.dir, 0.0);
                let (mut recent, mut next) = ([u32::MAX; 8], 0usize);
                let (o, d) = (ray.origin.as_dvec3(), ray.dir.as_dvec3());
                let (o, d) = (DVec2::new(o.x, o.z), DVec2::new(d.x, d.z));
                self.walls.walk_ray(o, d, t0, t1, |run| {
                    for &w in run {
                        // A wall spanning the cells just walked was asked already.
                        if recent.contains(&w) {
                            continue;
                        }
                        recent[next % recent.len()] = w;
                        next += 1;
                        let (min, max) = rw.boxes[w as usize];
                        if slab.entry(min, max, bound).is_some()
                            && let Some(t) = consider(rw.objects[w as usize] as usize)
                        {
                            bound = bound.min(t);
                        }
                    }
                    f64::from(bound)
                });
            }
            rw.others
                .cast(ray.origin, ray.dir, 0.0, bound, &mut consider);
        } else {
            self.tree
                .cast(ray.origin, ray.dir, 0.0, start, &mut consider);
        }
        self.moving_cast(ray.origin, ray.dir, Vec3::ZERO, low.get(), &mut consider);
        drop(consider);
        best
    }

    /// Every object `ray` hits with `t <= max_t` (each object's own query, as [`Scene::cast_ray`]), nearest
    /// first, equal `t` by id: what the editor's probe lists.
    #[must_use]
    pub fn cast_ray_all(&self, ray: &Ray, max_t: f32) -> Vec<SceneHit> {
        let mut out = Vec::new();
        if !ray.is_valid() || !(max_t >= 0.0) {
            return out;
        }
        let mut consider = |i: usize| -> Option<f32> {
            if let Some(h) = self.shapes[i].cast_ray(ray, max_t)
                && (!self.one_way.is(i) || one_way::ray_counts(ray, h.normal))
            {
                out.push(SceneHit {
                    object: self.ids[i],
                    t: h.t,
                    point: h.point,
                    normal: h.normal,
                });
            }
            // Never lower the tree's bound: every hit up to max_t is wanted.
            None
        };
        for &i in &self.unbounded {
            let _ = consider(i as usize);
        }
        self.moving_cast(ray.origin, ray.dir, Vec3::ZERO, max_t, &mut consider);
        self.tree
            .cast(ray.origin, ray.dir, 0.0, max_t, &mut consider);
        out.sort_by(|a, b| a.t.total_cmp(&b.t).then(a.object.cmp(&b.object)));
        out
    }

    /// The first object a sphere moving by `motion` touches: the smallest time of impact of the objects' own
    /// sweeps ([`Static::sweep_sphere`]); equal times go to the lower id. Already touching at the start gives
    /// `t = 0` (unless the motion separates them, as every sweep). An invalid sphere or non-finite motion gives
    /// `None`.
    #[must_use]
    pub fn sweep_sphere(&self, sphere: &Sphere, motion: Vec3) -> Option<SceneToi> {
        if !sphere.is_valid() || !motion.is_finite() {
            return None;
        }
        let mut best: Option<SceneToi> = None;
        let mut consider = |i: usize| -> Option<f32> {
            let (id, shape) = (self.ids[i], &self.shapes[i]);
            let t = shape.sweep_sphere(sphere, motion)?;
            if self.one_way.is(i)
                && !one_way::sweep_counts(shape, Probe::Sphere(sphere), motion, &t)
            {
                return None;
            }
            if better(t.t, id, best.map(|b| (b.t, b.object))) {
                best = Some(SceneToi {
                    object: id,
                    t: t.t,
                    point: t.point,
                    normal: t.normal,
                });
            }
            Some(t.t)
        };
        let mut start = 1.0f32;
        for &i in &self.unbounded {
            if let Some(t) = consider(i as usize) {
                start = start.min(t);
            }
        }
        // The centre's path against every box grown by the radius: the swept sphere can only touch objects
        // whose grown box the path enters.
        // The moved objects last, below the static tree's earliest contact (`low` follows every answer).
        let low = std::cell::Cell::new(start);
        let mut consider = moving::lowest(&low, consider);
        self.tree
            .cast(sphere.center, motion, sphere.radius, start, &mut consider);
        let r = Vec3::splat(sphere.radius);
        self.moving_cast(sphere.center, motion, r, low.get(), &mut consider);
        drop(consider);
        best
    }

    /// The first object a capsule moving by `motion` touches: the smallest time of impact of the objects' own
    /// capsule sweeps ([`Static::sweep_capsule`]); equal times go to the lower id. Already touching at the
    /// start gives `t = 0` (unless the motion separates them, as every sweep). An invalid capsule or
    /// non-finite motion gives `None`.
    ///
    /// ```
    /// use collidoscope::{glam::Vec3, level::{Level, ObjectId}, scene::Scene, shape::Capsule};
    /// let level = Level::from_ron_str(r#"(version: 2,
    ///     aabbs: [(id: 4, min: (2.0, 0.0, -1.0), max: (3.0, 2.0, 1.0))])"#).unwrap();
    /// let scene = Scene::from_level(&level).unwrap();
    /// // An upright capsule of radius 0.5 moving +x by 3: its side meets the face x = 2 when the axis is at 1.5.
    /// let body = Capsule::new(Vec3::new(0.0, 0.5, 0.0), Vec3::new(0.0, 1.5, 0.0), 0.5);
    /// let toi = scene.sweep_capsule(&body, Vec3::new(3.0, 0.0, 0.0)).unwrap();
    /// assert_eq!((toi.object, toi.t, toi.normal), (ObjectId(4), 0.5, -Vec3::X));
    /// ```
    #[must_use]
    pub fn sweep_capsule(&self, capsule: &Capsule, motion: Vec3) -> Option<SceneToi> {
        self.sweep_capsule_near(None, capsule, motion)
    }

    /// [`Scene::sweep_capsule`] through what `near` gathered when its region holds the sweep (the same
    /// answer: the objects are judged by their own sweeps and `better`, whatever their order).
    pub(crate) fn sweep_capsule_near(
        &self,
        near: Option<&NearScene>,
        capsule: &Capsule,
        motion: Vec3,
    ) -> Option<SceneToi> {
        if !capsule.is_valid() || !motion.is_finite() {
            return None;
        }
        let mut best: Option<SceneToi> = None;
        let mut consider = |i: usize| -> Option<f32> {
            let (id, shape) = (self.ids[i], &self.shapes[i]);
            let t = self.object_sweep_capsule(near, i, capsule, motion)?;
            if self.one_way.is(i)
                && !one_way::sweep_counts(shape, Probe::Capsule(capsule), motion, &t)
            {
                return None;
            }
            if better(t.t, id, best.map(|b| (b.t, b.object))) {
                best = Some(SceneToi {
                    object: id,
                    t: t.t,
                    point: t.point,
                    normal: t.normal,
                });
            }
            Some(t.t)
        };
        // The capsule's box moving along the motion: it can only touch objects whose box it enters.
        let bounds = capsule.bounds();
        let moved = capsule.translated(motion).bounds();
        let (lo, hi) = (bounds.min.min(moved.min), bounds.max.max(moved.max));
        let mut start = 1.0f32;
        for &i in self.planes_near(near, lo, hi) {
            if let Some(t) = consider(i as usize) {
                start = start.min(t);
            }
        }
        if let Some(objects) = self.near_objects(near, lo, hi) {
            for i in objects {
                consider(i);
            }
            return best;
        }
        // The moved objects last, below the static tree's earliest contact (`low` follows every answer).
        let low = std::cell::Cell::new(start);
        let mut consider = moving::lowest(&low, consider);
        self.tree.cast_box(
            bounds.center(),
            motion,
            bounds.half_extents(),
            start,
            &mut consider,
        );
        self.moving_cast(
            bounds.center(),
            motion,
            bounds.half_extents(),
            low.get(),
            &mut consider,
        );
        drop(consider);
        best
    }

    /// Every object the capsule touches or overlaps, ids ascending: the objects' own capsule overlap tests
    /// ([`Static::overlaps_capsule`]). An invalid capsule touches nothing.
    ///
    /// ```
    /// use collidoscope::{glam::Vec3, level::{Level, ObjectId}, scene::Scene, shape::Capsule};
    /// let level = Level::from_ron_str(r#"(version: 2, planes: [(id: 1, normal: (0.0, 1.0, 0.0), d: 0.0)],
    ///     aabbs: [(id: 4, min: (2.0, 0.0, -1.0), max: (3.0, 2.0, 1.0))])"#).unwrap();
    /// let scene = Scene::from_level(&level).unwrap();
    /// let body = |x: f32, y: f32| Capsule::new(Vec3::new(x, y + 0.5, 0.0), Vec3::new(x, y + 1.5, 0.0), 0.5);
    /// assert_eq!(scene.overlap_capsule(&body(1.5, 0.0)), vec![ObjectId(1), ObjectId(4)]); // on the floor, at the box
    /// assert!(scene.overlap_capsule(&body(0.0, 0.01)).is_empty());
    /// ```
    #[must_use]
    pub fn overlap_capsule(&self, capsule: &Capsule) -> Vec<ObjectId> {
        let mut out = Vec::new();
        if !capsule.is_valid() {
            return out;
        }
        let test = |i: usize, out: &mut Vec<ObjectId>| {
            if self.shapes[i].overlaps_capsule(capsule)
                && self.overlap_counts(i, Probe::Capsule(capsule))
            {
                out.push(self.ids[i]);
            }
        };
        for &i in &self.unbounded {
            test(i as usize, &mut out);
        }
        let b = capsule.bounds();
        self.moving_query(b.min, b.max, |i| test(i, &mut out));
        self.tree.query(b.min, b.max, |i| test(i, &mut out));
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Whether the capsule touches or overlaps any object: [`Scene::overlap_capsule`] is not empty. Allocates
    /// nothing (a character's every move asks it).
    pub(crate) fn overlaps_capsule_any(&self, capsule: &Capsule) -> bool {
        self.overlaps_capsule_any_near(None, capsule)
    }

    /// [`Scene::overlaps_capsule_any`] through what `near` gathered when its region holds the capsule.
    pub(crate) fn overlaps_capsule_any_near(
        &self,
        near: Option<&NearScene>,
        capsule: &Capsule,
    ) -> bool {
        if !capsule.is_valid() {
            return false;
        }
        let b = capsule.bounds();
        if self
            .planes_near(near, b.min, b.max)
            .iter()
            .any(|&i| self.shapes[i as usize].overlaps_capsule(capsule))
        {
            return true;
        }
        let mut found = false;
        let mut test = |i: usize| {
            found = found
                || (self.object_overlaps_capsule(near, i, capsule)
                    && self.overlap_counts(i, Probe::Capsule(capsule)));
        };
        if let Some(objects) = self.near_objects(near, b.min, b.max) {
            objects.for_each(test);
            return found;
        }
        self.moving_query(b.min, b.max, &mut test);
        self.tree.query(b.min, b.max, test);
        found
    }

    /// Every object the sphere touches or overlaps (solids: boxes, cylinders, walls; surfaces: planes,
    /// triangles, meshes), ids ascending; the objects' own overlap tests ([`overlap::sphere_plane`],
    /// [`overlap::sphere_cylinder`], [`overlap::sphere_triangle`], [`overlap::sphere_aabb`],
    /// [`overlap::sphere_obb`], [`overlap::sphere_wall`], [`TriMesh::overlaps_sphere`]). An invalid sphere
    /// touches nothing.
    #[must_use]
    pub fn overlap_sphere(&self, sphere: &Sphere) -> Vec<ObjectId> {
        let mut out = Vec::new();
        if !sphere.is_valid() {
            return out;
        }
        let test = |i: usize, out: &mut Vec<ObjectId>| {
            if self.shapes[i].overlaps_sphere(sphere)
                && self.overlap_counts(i, Probe::Sphere(sphere))
            {
                out.push(self.ids[i]);
            }
        };
        for &i in &self.unbounded {
            test(i as usize, &mut out);
        }
        let r = Vec3::splat(sphere.radius);
        let (lo, hi) = (sphere.center - r, sphere.center + r);
        self.moving_query(lo, hi, |i| test(i, &mut out));
        self.tree.query(lo, hi, |i| test(i, &mut out));
        out.sort_unstable();
        out.dedup();
        out
    }

    /// A top-down circle moved from `from` by `motion` against the level's walls, sliding along them:
    /// [`crate::walls::move_and_slide`] over the same walls (through the grid, so the cost does not grow
    /// with the number of walls).
    #[must_use]
    pub fn move_and_slide(&self, from: Vec2, radius: f32, motion: Vec2) -> Vec2 {
        self.walls.move_and_slide(from, radius, motion)
    }

    /// The walls as plain segments, in level order (for callers of [`crate::walls`]).
    #[must_use]
    pub fn wall_segments(&self) -> &[Wall] {
        self.walls.walls()
    }
}

impl Scene {
    /// Replace object `id`'s shape (its first entry, when the id is repeated), add it when the scene has no
    /// such object, or remove it (`None`), keeping every other object's answers. Replacing one bounded
    /// object by another (a re-cooked sector's mesh) refits the tree's bounds instead of rebuilding it;
    /// anything else (planes, walls, triangles, objects added or removed) rebuilds the structures.
    pub fn set_object(&mut self, id: ObjectId, shape: Option<Static>) {
        let at = self.by_id.get(&id).map(|&i| i as usize);
        match (at, shape) {
            (Some(i), Some(shape)) if self.set_moving_base(i, &shape) => {}
            (Some(i), Some(shape)) => {
                let cheap = |s: &Static| {
                    !matches!(
                        s,
                        Static::Plane(_) | Static::Wall { .. } | Static::Triangle(_)
                    )
                };
                let new_box = shape.bounds().map(padded);
                let refit = cheap(&self.shapes[i])
                    && cheap(&shape)
                    && !self.dirty
                    && new_box.is_some_and(|b| {
                        let ok = self.tree.refit(i, &b);
                        if ok && let Some(rw) = &mut self.ray_walls {
                            rw.others.refit(i, &b);
                        }
                        ok
                    });
                self.shapes[i] = shape;
                if let (true, Some(b)) = (refit, new_box) {
                    self.boxes[i] = b;
                    self.generation += 1;
                } else {
                    self.dirty = true;
                    self.refresh();
                }
            }
            (Some(i), None) => {
                self.shapes.remove(i);
                self.ids.remove(i);
                self.moving.removed(i);
                self.one_way.removed(i);
                self.dirty = true;
                self.refresh();
            }
            (None, Some(shape)) => {
                self.push(id, shape);
                self.refresh();
            }
            (None, None) => {}
        }
    }
}

/// The `t` interval (within `0..=max_t`, widened by a few ulps) on which `ray` is at a height `y` in
/// `0..=top`: where it can meet a wall.
fn y_interval(ray: &Ray, top: f32, max_t: f32) -> Option<(f64, f64)> {
    let (o, d) = (f64::from(ray.origin.y), f64::from(ray.dir.y));
    let pad = (f64::from(top).abs() + o.abs() + 1.0) * 1e-6;
    let (lo, hi) = (-pad, f64::from(top) + pad);
    let (t0, t1) = if d == 0.0 {
        if o < lo || o > hi {
            return None;
        }
        (0.0, f64::from(max_t))
    } else {
        let (a, b) = ((lo - o) / d, (hi - o) / d);
        (a.min(b).max(0.0), a.max(b).min(f64::from(max_t)))
    };
    (t0 <= t1).then_some((t0, t1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Aabb, Plane};

    /// Rays walk the wall grid on a maze; walls strung along one line (a grid of one row) or crowded into
    /// one cell go through the tree; both answer the same as each wall's own query.
    #[test]
    fn rays_walk_the_grid_only_where_it_serves() {
        let wall = |k: u32, a: Vec2, b: Vec2| {
            let w = crate::shape::Wall::new(a, b, 0.1);
            (
                ObjectId(k),
                Static::Wall {
                    wall: w,
                    height: 2.0,
                },
            )
        };
        let maze = crate::generate::maze(&crate::generate::MazeParams {
            walls: 400,
            balls: 0,
            seed: 2,
            cell: 2.0,
        });
        let grid = Scene::from_objects(maze.walls.iter().map(|w| {
            (
                w.id,
                Static::Wall {
                    wall: w.wall(),
                    height: 2.0,
                },
            )
        }));
        assert!(grid.ray_walls.is_some());
        let line = Scene::from_objects((0..20_000u32).map(|k| {
            let x = k as f32;
            wall(k + 1, Vec2::new(x, 0.0), Vec2::new(x + 0.5, 0.0))
        }));
        assert!(line.ray_walls.is_none(), "{}", line.walls.cells_across());
        let crowd = Scene::from_objects(
            (0..100u32).map(|k| wall(k + 1, Vec2::ZERO, Vec2::new(1.0, 0.01 * k as f32))),
        );
        assert!(crowd.ray_walls.is_none(), "{}", crowd.walls.max_cell_len());
        for scene in [&grid, &line, &crowd] {
            for k in 0..200 {
                let a = k as f32 * 0.37;
                let r = Ray::new(
                    Vec3::new(a.sin() * 5.0 + 8.0, 1.0, a.cos() * 5.0 + 8.0),
                    Vec3::new(a.cos(), -0.05, -a.sin()),
                );
                let want = scene
                    .objects()
                    .filter_map(|(id, s)| s.cast_ray(&r, 50.0).map(|h| (h.t, id)))
                    .min_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
                let got = scene.cast_ray(&r, 50.0).map(|h| (h.t, h.object));
                assert_eq!(got, want);
            }
        }
    }

    #[test]
    fn ties_go_to_the_lower_id() {
        // Two identical boxes with ids 7 and 3: the hit names 3.
        let b = Aabb::new(Vec3::new(1.0, -1.0, -1.0), Vec3::new(2.0, 1.0, 1.0));
        let scene = Scene::from_objects([
            (ObjectId(7), Static::Aabb(b)),
            (ObjectId(3), Static::Aabb(b)),
        ]);
        let hit = scene
            .cast_ray(&Ray::new(Vec3::ZERO, Vec3::X), 10.0)
            .unwrap();
        assert_eq!((hit.object, hit.t), (ObjectId(3), 1.0));
        let toi = scene
            .sweep_sphere(&Sphere::new(Vec3::ZERO, 0.5), Vec3::new(2.0, 0.0, 0.0))
            .unwrap();
        assert_eq!((toi.object, toi.t), (ObjectId(3), 0.25));
    }

    #[test]
    fn planes_and_bounded_objects_compete() {
        let scene = Scene::from_objects([
            (ObjectId(1), Static::Plane(Plane::new(Vec3::X, 5.0))),
            (
                ObjectId(2),
                Static::Aabb(Aabb::new(
                    Vec3::new(3.0, -1.0, -1.0),
                    Vec3::new(4.0, 1.0, 1.0),
                )),
            ),
        ]);
        let r = Ray::new(Vec3::ZERO, Vec3::X);
        assert_eq!(scene.cast_ray(&r, 10.0).unwrap().object, ObjectId(2));
        assert!(scene.cast_ray(&r, 2.9).is_none());
        let r = Ray::new(Vec3::new(0.0, 5.0, 0.0), Vec3::X);
        assert_eq!(scene.cast_ray(&r, 10.0).unwrap().object, ObjectId(1));
        assert!(scene.cast_ray(&r, f32::NAN).is_none());
    }
}
