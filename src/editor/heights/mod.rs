//! Heights edited in the 3D preview (no egui): the surface under the pointer ([`pick`]), raised or lowered
//! by the snap step with Ctrl+wheel or an Alt+drag, and the limits the changed heights meet ([`warn`]).
//!
//! A gesture is one undo step. It captures the aimed object as it was, then each wheel notch or each
//! [`DRAG_POINTS_PER_STEP`] of vertical drag moves it one step from that original (no drift), shown at once
//! as a preview the app writes into the document in place, as the tools' live drags are. A step the
//! runtime's validation refuses (a floor through its ceiling, a sector overlapping another in its storey)
//! is not taken: the label says why and the gesture stays at the last valid height. The gesture ends when
//! the drag is released or the wheel has been quiet for [`WHEEL_QUIET_SECS`]; the app then puts the
//! original back and runs the final state as one `Command::Apply`. An edit of the document meanwhile
//! (undo, another tool) ends the gesture with nothing applied.
//!
//! Boxes (AABB, OBB), cylinders and level triangles move whole; sectors move the aimed floor or ceiling.
//! The steps, the input and the end of a gesture are [`gesture`]'s, shared with what else is raised this
//! way (a selected mover's path points, `movers::points3d`, which builds on this room); the app tries
//! those first and tells [`Heights::frame`] when they took the pointer.

pub mod gesture;
pub mod pick;
pub mod warn;

use std::collections::HashMap;
use std::sync::Arc;

use glam::Vec3;

use crate::editor::document::sector::{self as edits, Which};
use crate::editor::document::{DocKey, Document, Edit, Kind, LabelledEdit, Object};
use crate::level::{Level, ObjectId};
use crate::scene::Scene;
use crate::sector::{CookedSector, HeightFn};
use crate::shape::Ray;

pub use gesture::{DRAG_POINTS_PER_STEP, Gesture, PointerInput, WHEEL_QUIET_SECS};
pub use pick::{Aim, Target};
pub use warn::{Verdict, WarnKind, Warning};

/// What the app does for the feature this frame.
#[derive(Clone, Debug, PartialEq)]
pub enum HeightsOut {
    /// Nothing.
    Nothing,
    /// Write this object into the document in place (a live preview, not a step).
    Preview(Box<Object>),
    /// The gesture ended: put `original` back in place, then run `edit` (when it moved) as one command.
    Finish {
        /// The object as it was when the gesture began.
        original: Box<Object>,
        /// The final state as one step.
        edit: Option<Box<LabelledEdit>>,
    },
}

/// A surface's height gesture under way.
#[derive(Clone, Debug, PartialEq)]
pub struct SurfaceGesture {
    /// What moves.
    pub target: Target,
    /// The face aimed when it began.
    pub aim: Aim,
    /// The object as it was.
    pub original: Object,
    /// What the last preview wrote (the gesture ends unapplied when the document no longer holds it).
    pub shown: Object,
    /// Its steps, its input and its end.
    pub steps: Gesture,
}

/// Sectors cooked with their neighbours, by id, for picking (`None`: cooked to nothing).
type CookedNear = HashMap<ObjectId, Option<Arc<CookedSector>>>;
/// The document and the sectors the warnings are of.
type WarningsKey = (DocKey, Vec<ObjectId>);

/// The feature's state: the aimed surface, the gesture, the surface a click chose and the cooked sectors
/// picking asks (kept per document key).
#[derive(Debug, Default)]
pub struct Heights {
    /// The surface under the pointer (no gesture under way).
    pub hover: Option<Aim>,
    /// The gesture under way.
    pub gesture: Option<SurfaceGesture>,
    /// The surface the last click in the 3D preview selected (its sector and floor or ceiling).
    pub chosen: Option<Target>,
    cooked: Option<(DocKey, CookedNear)>,
    warnings: Option<(WarningsKey, Arc<Vec<Warning>>)>,
}

impl Heights {
    /// Whether the pointer's Ctrl+wheel and Alt+drag belong to the feature (something editable is aimed,
    /// or a gesture is under way): the view's camera leaves them alone.
    #[must_use]
    pub fn wants_pointer(&self) -> bool {
        self.hover.is_some() || self.gesture.is_some()
    }

    /// When a wheel gesture under way ends if the wheel stays quiet (the app asks for a frame then).
    #[must_use]
    pub fn deadline(&self) -> Option<f64> {
        self.gesture.as_ref().and_then(|g| g.steps.deadline())
    }

    fn cooked(&mut self, level: &Level, key: DocKey, id: ObjectId) -> Option<Arc<CookedSector>> {
        if self.cooked.as_ref().is_none_or(|(k, _)| *k != key) {
            self.cooked = Some((key, HashMap::new()));
        }
        let (_, map) = self.cooked.as_mut()?;
        map.entry(id)
            .or_insert_with(|| pick::cook_near(level, id).map(Arc::new))
            .clone()
    }

    /// The aim along `ray` in `doc` (whose runtime scene is `scene`).
    pub fn aim(&mut self, doc: &Document, scene: &Scene, ray: &Ray, max_t: f32) -> Option<Aim> {
        let key = doc.key();
        let level = doc.level();
        pick::pick(level, scene, ray, max_t, |id| self.cooked(level, key, id))
    }

    /// One frame: follow the pointer, start, step or end a gesture. Returns what the app should write.
    /// `taken`: the pointer belongs to something aimed before the surfaces (a mover's path point), so
    /// nothing here is aimed nor begun.
    pub fn frame(
        &mut self,
        doc: &Document,
        scene: &Scene,
        input: &PointerInput,
        taken: bool,
    ) -> HeightsOut {
        if taken && self.gesture.is_none() {
            self.hover = None;
            return HeightsOut::Nothing;
        }
        if let Some(g) = &self.gesture
            && doc.object(g.shown.id()).as_ref() != Some(&g.shown)
        {
            // The document moved under the gesture (undo, another edit): nothing to apply.
            self.gesture = None;
        }
        if self.gesture.is_none() {
            self.hover = input
                .ray
                .and_then(|(ray, max_t)| self.aim(doc, scene, &ray, max_t));
            if input.starts()
                && let Some(aim) = self.hover
            {
                self.begin(doc, aim, input);
            }
        }
        let Some(g) = &mut self.gesture else {
            return HeightsOut::Nothing;
        };
        let mut shown = None;
        let (original, target, step) = (&g.original, g.target, g.steps.step);
        let (stepped, ended) = g.steps.frame(input, |steps| {
            shown = Some(moved(doc.level(), original, target, steps as f32 * step)?);
            Ok(())
        });
        let mut out = HeightsOut::Nothing;
        if stepped && let Some(o) = shown {
            g.shown = o.clone();
            out = HeightsOut::Preview(Box::new(o));
        }
        if ended {
            return self.finish();
        }
        out
    }

    fn begin(&mut self, doc: &Document, aim: Aim, input: &PointerInput) {
        let Some(original) = doc.object(aim.target.id()) else {
            return;
        };
        self.gesture = Some(SurfaceGesture {
            target: aim.target,
            aim,
            shown: original.clone(),
            original,
            steps: Gesture::begin(input),
        });
    }

    /// End the gesture under way (when the wheel went quiet or the drag ended; also what the app asks when
    /// it must stop at once).
    pub fn finish(&mut self) -> HeightsOut {
        let Some(g) = self.gesture.take() else {
            return HeightsOut::Nothing;
        };
        let edit = (g.steps.steps != 0 && g.shown != g.original).then(|| {
            let delta = g.steps.delta();
            Box::new(LabelledEdit::new(
                gesture_label(g.target, delta),
                Edit {
                    replace: vec![g.shown.clone()],
                    ..Edit::default()
                },
                None,
            ))
        });
        HeightsOut::Finish {
            original: Box::new(g.original),
            edit,
        }
    }

    /// The sectors whose numbers are shown: the gesture's sector, else the selected sectors.
    #[must_use]
    pub fn watched(&self, doc: &Document) -> Vec<ObjectId> {
        match &self.gesture {
            Some(SurfaceGesture {
                target: Target::Sector { id, .. },
                ..
            }) => vec![*id],
            Some(_) => Vec::new(),
            None => doc
                .selection()
                .iter()
                .copied()
                .filter(|id| doc.level().sectors.iter().any(|s| s.id == *id))
                .collect(),
        }
    }

    /// The limits the watched sectors meet ([`warn::warnings`]), kept per (document key, sectors).
    pub fn warnings(&mut self, doc: &Document) -> Arc<Vec<Warning>> {
        let key = (doc.key(), self.watched(doc));
        if let Some((k, w)) = &self.warnings
            && *k == key
        {
            return Arc::clone(w);
        }
        let w = Arc::new(warn::warnings(doc.level(), &key.1));
        self.warnings = Some((key, Arc::clone(&w)));
        w
    }

    /// The label by the pointer: the gesture's surface and height ("floor 2.40 m (+0.40)", with why a step
    /// was refused), else the aimed one's ("floor 2.00 m").
    #[must_use]
    pub fn label(&self, level: &Level) -> Option<String> {
        if let Some(g) = &self.gesture {
            let d = g.steps.delta();
            // Of the sector as the gesture has it (the document takes the preview after this frame).
            let one;
            let lv = match &g.shown {
                Object::Sector(s) => {
                    one = Level {
                        sectors: vec![s.clone()],
                        ..Level::default()
                    };
                    &one
                }
                _ => level,
            };
            let mut s = format!("{} ({d:+.2})", describe(lv, g.target, g.aim.point)?);
            if let Some(why) = &g.steps.refused {
                s.push_str(&format!(" — not lower or higher: {why}"));
            }
            return Some(s);
        }
        let aim = self.hover?;
        describe(level, aim.target, aim.point)
    }

    /// The highlight: the edges of what the gesture moves (or the pointer aims), and of the face aimed.
    #[must_use]
    pub fn highlight(&self, level: &Level) -> Vec<[Vec3; 2]> {
        let (target, aim) = match (&self.gesture, &self.hover) {
            (Some(g), _) => (g.target, g.aim),
            (None, Some(a)) => (a.target, *a),
            (None, None) => return Vec::new(),
        };
        let mut out = outline(level, target);
        if self.gesture.is_none()
            && let Some([a, b, c]) = aim.triangle
        {
            out.extend([[a, b], [b, c], [c, a]]);
        }
        out
    }
}

/// The lowest top a wall is moved down to, metres.
pub const MIN_WALL_HEIGHT: f32 = 0.01;

/// The object of `target` moved by `delta` metres up (a sector's floor or ceiling only; a wall, standing on
/// the ground, by its top), checked by the runtime's validation for sectors.
///
/// # Errors
/// The runtime's reason when the moved sector is invalid; a wall below [`MIN_WALL_HEIGHT`]; an object that
/// cannot move so.
pub fn moved(
    level: &Level,
    original: &Object,
    target: Target,
    delta: f32,
) -> Result<Object, String> {
    let mut o = original.clone();
    match (&mut o, target) {
        (Object::Sector(s), Target::Sector { which, .. }) => {
            which.of_mut(s).height += delta;
            edits::check(level, std::slice::from_ref(s), &[], &[])?;
        }
        (Object::Aabb(b), _) => {
            b.min.y += delta;
            b.max.y += delta;
        }
        (Object::Obb(b), _) => b.center.y += delta,
        (Object::Cylinder(c), _) => {
            c.a.y += delta;
            c.b.y += delta;
        }
        (Object::Triangle(t), _) => {
            for p in [&mut t.a, &mut t.b, &mut t.c] {
                p.y += delta;
            }
        }
        (Object::Mesh(m), _) => m.vertices.iter_mut().for_each(|v| v.y += delta),
        (Object::Wall(w), _) => {
            // A wall stands on y = 0: moving it up or down moves its top.
            let h = w.height.unwrap_or(level.default_wall_height) + delta;
            if !(h >= MIN_WALL_HEIGHT) || !h.is_finite() {
                return Err(format!(
                    "a wall is at least {MIN_WALL_HEIGHT} m high (it stands on the ground)"
                ));
            }
            w.height = Some(h);
        }
        _ => {
            return Err(
                "only sectors, boxes, cylinders, triangles, meshes and walls move up and down here"
                    .into(),
            );
        }
    }
    Ok(o)
}

/// The step's name in the history: "Raise floor of sector #3 by 0.40 m", "Lower aabb #5 by 0.20 m".
#[must_use]
pub fn gesture_label(target: Target, delta: f32) -> String {
    let verb = if delta >= 0.0 { "Raise" } else { "Lower" };
    let d = delta.abs();
    match target {
        Target::Sector { id, which } => {
            format!("{verb} {} of sector #{} by {d:.2} m", which.noun(), id.0)
        }
        Target::Solid { id, kind } => format!("{verb} {} #{} by {d:.2} m", kind_noun(kind), id.0),
    }
}

fn kind_noun(kind: Kind) -> &'static str {
    match kind {
        Kind::Aabb => "box",
        Kind::Obb => "oriented box",
        Kind::Cylinder => "cylinder",
        Kind::Triangle => "triangle",
        Kind::Mesh => "mesh",
        Kind::Wall => "wall",
        _ => "object",
    }
}

/// "floor 2.40 m" (at the point aimed, for a sloped surface), "box top 1.20 m".
#[must_use]
pub fn describe(level: &Level, target: Target, point: Vec3) -> Option<String> {
    match target {
        Target::Sector { id, which } => {
            let s = level.sectors.iter().find(|s| s.id == id)?;
            let h = HeightFn::new(&which.of(s), &s.outline);
            let at = glam::Vec2::new(point.x, point.z);
            Some(format!("{} {:.2} m", which.noun(), h.at(at)))
        }
        Target::Solid { id, kind } => {
            let top = top_of(level, id)?;
            Some(format!("{} top {top:.2} m", kind_noun(kind)))
        }
    }
}

/// The highest point of a solid.
fn top_of(level: &Level, id: ObjectId) -> Option<f32> {
    if let Some(b) = level.aabbs.iter().find(|b| b.id == id) {
        return Some(b.max.y);
    }
    if let Some(b) = level.obbs.iter().find(|b| b.id == id) {
        let r = b.rotation();
        let up = r.row(1).abs();
        return Some(b.center.y + up.dot(b.half_extents));
    }
    if let Some(c) = level.cylinders.iter().find(|c| c.id == id) {
        let axis = (c.b - c.a).normalize_or_zero();
        let rim = c.radius * (1.0 - axis.y * axis.y).max(0.0).sqrt();
        return Some(c.a.y.max(c.b.y) + rim);
    }
    if let Some(m) = level.meshes.iter().find(|m| m.id == id) {
        return m.vertices.iter().map(|v| v.y).reduce(f32::max);
    }
    if let Some(w) = level.walls.iter().find(|w| w.id == id) {
        return Some(w.height.unwrap_or(level.default_wall_height));
    }
    let t = level.triangles.iter().find(|t| t.id == id)?;
    Some(t.a.y.max(t.b.y).max(t.c.y))
}

/// The edges of what `target` moves: a sector surface's rings on its plane, a solid's edges.
fn outline(level: &Level, target: Target) -> Vec<[Vec3; 2]> {
    let mut out = Vec::new();
    match target {
        Target::Sector { id, which } => {
            let Some(s) = level.sectors.iter().find(|s| s.id == id) else {
                return out;
            };
            let h = HeightFn::new(&which.of(s), &s.outline);
            for r in std::iter::once(&s.outline).chain(&s.holes) {
                let p = |v: glam::Vec2| Vec3::new(v.x, h.at(v), v.y);
                out.extend((0..r.len()).map(|i| [p(r[i]), p(r[(i + 1) % r.len()])]));
            }
        }
        Target::Solid { id, .. } => solid_edges(level, id, &mut out),
    }
    out
}

fn solid_edges(level: &Level, id: ObjectId, out: &mut Vec<[Vec3; 2]>) {
    let boxed = |c: Vec3, axes: [Vec3; 3], half: Vec3, out: &mut Vec<[Vec3; 2]>| {
        let corner = |i: u32| {
            let s = |k: u32| if i >> k & 1 == 1 { 1.0 } else { -1.0 };
            c + axes[0] * half.x * s(0) + axes[1] * half.y * s(1) + axes[2] * half.z * s(2)
        };
        for i in 0..8u32 {
            for k in 0..3 {
                if i >> k & 1 == 0 {
                    out.push([corner(i), corner(i | 1 << k)]);
                }
            }
        }
    };
    if let Some(b) = level.aabbs.iter().find(|b| b.id == id) {
        boxed(
            (b.min + b.max) * 0.5,
            [Vec3::X, Vec3::Y, Vec3::Z],
            (b.max - b.min) * 0.5,
            out,
        );
    } else if let Some(b) = level.obbs.iter().find(|b| b.id == id) {
        let r = b.rotation();
        boxed(
            b.center,
            [r.x_axis, r.y_axis, r.z_axis],
            b.half_extents,
            out,
        );
    } else if let Some(c) = level.cylinders.iter().find(|c| c.id == id) {
        let axis = (c.b - c.a).normalize_or_zero();
        let (u, v) = axis.any_orthonormal_pair();
        let n = 24;
        let at = |end: Vec3, k: u32| {
            let a = k as f32 / n as f32 * std::f32::consts::TAU;
            end + (u * a.cos() + v * a.sin()) * c.radius
        };
        for k in 0..n {
            out.push([at(c.a, k), at(c.a, k + 1)]);
            out.push([at(c.b, k), at(c.b, k + 1)]);
        }
        for k in (0..n).step_by(6) {
            out.push([at(c.a, k), at(c.b, k)]);
        }
    } else if let Some(t) = level.triangles.iter().find(|t| t.id == id) {
        out.extend([[t.a, t.b], [t.b, t.c], [t.c, t.a]]);
    } else if let Some(m) = level.meshes.iter().find(|m| m.id == id) {
        // Its bounding box: a big mesh's every edge would hide what it moves against.
        if let Some((lo, hi)) = m
            .vertices
            .iter()
            .map(|v| (*v, *v))
            .reduce(|(a, b), (c, d)| (a.min(c), b.max(d)))
        {
            boxed(
                (lo + hi) * 0.5,
                [Vec3::X, Vec3::Y, Vec3::Z],
                (hi - lo) * 0.5,
                out,
            );
        }
    } else if let Some(w) = level.walls.iter().find(|w| w.id == id) {
        let h = w.height.unwrap_or(level.default_wall_height);
        let (a, b) = (Vec3::new(w.a.x, 0.0, w.a.y), Vec3::new(w.b.x, 0.0, w.b.y));
        let up = Vec3::Y * h;
        out.extend([[a, b], [a + up, b + up], [a, a + up], [b, b + up]]);
    }
}

/// The surface a sector target raises, as words for the status line: "floor of sector #3".
#[must_use]
pub fn target_words(target: Target) -> String {
    match target {
        Target::Sector { id, which } => format!("{} of sector #{}", which.noun(), id.0),
        Target::Solid { id, kind } => format!("{} #{}", kind_noun(kind), id.0),
    }
}

/// Whether `which` is the floor (for callers that only know the target).
#[must_use]
pub fn is_floor(target: Target) -> bool {
    matches!(
        target,
        Target::Sector {
            which: Which::Floor,
            ..
        }
    )
}

#[cfg(test)]
mod tests;
