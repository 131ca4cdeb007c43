//! A selected mover's path points raised and lowered in the 3D preview (no egui). With one object selected
//! that a mover moves, its path's points (drawn by [`super::marks3d`] at the path's anchor plus each offset)
//! can be aimed: the pointer's ray passing within [`AIM_ANGLE`] of one (the first point, the object's own
//! place, stays). Ctrl+wheel or a vertical Alt+drag then raises or lowers it by the snap step, as the
//! surfaces' heights are: the steps, their timings and the end are the height room's [`Gesture`], one step
//! from the height the gesture began at per notch (no drift), checked by the inspector's own change
//! ([`MoverChange::PointHeight`]); the gesture's path and height are drawn and labelled while it lasts, and
//! its end (the drag released, the wheel quiet) makes it one undo step, handed to the app as an edit to run
//! as a command. The app tries the points before the surfaces behind them.

use glam::Vec3;

use super::edit::{MoverChange, change_edit, changed};
use super::marks3d::anchor;
use crate::editor::document::{Document, LabelledEdit};
use crate::editor::heights::{Gesture, PointerInput};
use crate::level::{Level, MoverObject, ObjectId};
use crate::shape::Ray;

/// How near the ray must pass a point to aim it, as a fraction of the point's distance along the ray
/// (about 1.1°: some 15 pixels in a preview 800 pixels tall).
pub const AIM_ANGLE: f32 = 0.02;

/// A path point under the pointer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointAim {
    /// The mover's id.
    pub mover: ObjectId,
    /// The point's index in the path (never 0).
    pub index: usize,
    /// Where the point is drawn, world space.
    pub at: Vec3,
}

/// A point's height gesture under way.
#[derive(Clone, Debug, PartialEq)]
pub struct PointGesture {
    /// The point moved.
    pub aim: PointAim,
    /// The mover as it was when the gesture began.
    pub original: MoverObject,
    /// Its steps, its input and its end.
    pub steps: Gesture,
}

impl PointGesture {
    /// The point's height (its offset's `y`) as the gesture has it.
    #[must_use]
    pub fn height(&self) -> f32 {
        self.original
            .path
            .get(self.aim.index)
            .map_or(0.0, |p| p.y + self.steps.delta())
    }

    /// The mover as the gesture has it.
    #[must_use]
    pub fn shown(&self) -> MoverObject {
        let mut m = self.original.clone();
        if let Some(p) = m.path.get_mut(self.aim.index) {
            p.y = self.height();
        }
        m
    }
}

/// The feature's state: the aimed point, the gesture and the step a finished gesture left for the app.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PathPoints {
    /// The point under the pointer (no gesture under way).
    pub hover: Option<PointAim>,
    /// The gesture under way.
    pub gesture: Option<PointGesture>,
    finished: Option<Box<LabelledEdit>>,
}

/// The mover of the one selected object, if a mover moves it.
#[must_use]
pub fn selected_mover(doc: &Document) -> Option<&MoverObject> {
    let mut sel = doc.selection().iter();
    let (Some(id), None) = (sel.next(), sel.next()) else {
        return None;
    };
    doc.level().movers.iter().find(|m| m.object == *id)
}

/// The point of `m`'s path (not the first) that `ray` passes nearest, in angle, within [`AIM_ANGLE`] and
/// `max_t`.
#[must_use]
pub fn aim(level: &Level, m: &MoverObject, ray: &Ray, max_t: f32) -> Option<PointAim> {
    let from = anchor(level, m)?;
    let dir = ray.dir.normalize_or_zero();
    let mut best: Option<(f32, PointAim)> = None;
    for (index, p) in m.path.iter().enumerate().skip(1) {
        let at = from + *p;
        let v = at - ray.origin;
        let t = v.dot(dir);
        if !(t > 0.0 && t <= max_t && at.is_finite()) {
            continue;
        }
        let off = (v - dir * t).length() / t;
        if off <= AIM_ANGLE && best.is_none_or(|(b, _)| off < b) {
            let a = PointAim {
                mover: m.id,
                index,
                at,
            };
            best = Some((off, a));
        }
    }
    best.map(|(_, a)| a)
}

impl PathPoints {
    /// Whether the pointer's Ctrl+wheel and Alt+drag belong to the feature (a point aimed or a gesture).
    #[must_use]
    pub fn wants_pointer(&self) -> bool {
        self.hover.is_some() || self.gesture.is_some()
    }

    /// When a wheel gesture under way ends if the wheel stays quiet.
    #[must_use]
    pub fn deadline(&self) -> Option<f64> {
        self.gesture.as_ref().and_then(|g| g.steps.deadline())
    }

    /// The step a gesture that ended left, to run as one command (taken once).
    pub fn take_finished(&mut self) -> Option<Box<LabelledEdit>> {
        self.finished.take()
    }

    /// One frame: follow the pointer, start, step or end a gesture (its step is then
    /// [`Self::take_finished`]'s).
    pub fn frame(&mut self, doc: &Document, input: &PointerInput) {
        let level = doc.level();
        if let Some(g) = &self.gesture
            && level.movers.iter().find(|m| m.id == g.original.id) != Some(&g.original)
        {
            // The document moved under the gesture (undo, another edit): nothing to apply.
            self.gesture = None;
        }
        if self.gesture.is_none() {
            self.hover = selected_mover(doc)
                .zip(input.ray)
                .and_then(|(m, (ray, max_t))| aim(level, m, &ray, max_t));
            if input.starts()
                && let Some(a) = self.hover
                && let Some(m) = level.movers.iter().find(|m| m.id == a.mover)
            {
                self.gesture = Some(PointGesture {
                    aim: a,
                    original: m.clone(),
                    steps: Gesture::begin(input),
                });
            }
        }
        let Some(g) = &mut self.gesture else {
            return;
        };
        let (original, index, step) = (&g.original, g.aim.index, g.steps.step);
        let (_, ended) = g.steps.frame(input, |steps| {
            let y = original.path.get(index).map_or(0.0, |p| p.y) + steps as f32 * step;
            changed(level, original, MoverChange::PointHeight(index, y)).map(|_| ())
        });
        if ended {
            self.finish(level);
        }
    }

    /// End the gesture under way: its step (when the point moved) is left for [`Self::take_finished`].
    pub fn finish(&mut self, level: &Level) {
        let Some(g) = self.gesture.take() else {
            return;
        };
        if g.steps.steps == 0 {
            return;
        }
        let change = MoverChange::PointHeight(g.aim.index, g.height());
        self.finished = change_edit(level, g.original.id, change, None)
            .ok()
            .map(Box::new);
    }

    /// The label by the pointer: "mover #41 point 1 y 3.50 m (+0.50)" while a gesture lasts (with why a
    /// step was refused), "mover #41 point 1 y 3.00 m" when aimed.
    #[must_use]
    pub fn label(&self, level: &Level) -> Option<String> {
        if let Some(g) = &self.gesture {
            let d = g.steps.delta();
            let mut s = format!(
                "mover #{} point {} y {:.2} m ({d:+.2})",
                g.aim.mover.0,
                g.aim.index,
                g.height()
            );
            if let Some(why) = &g.steps.refused {
                s.push_str(&format!(" — {why}"));
            }
            return Some(s);
        }
        let a = self.hover?;
        let m = level.movers.iter().find(|m| m.id == a.mover)?;
        let y = m.path.get(a.index)?.y;
        Some(format!("mover #{} point {} y {y:.2} m", a.mover.0, a.index))
    }

    /// The highlight: a diamond about the aimed point; while a gesture lasts, the path as it has it and a
    /// line from where the point was to where it is.
    #[must_use]
    pub fn highlight(&self, level: &Level) -> Vec<[Vec3; 2]> {
        let mut out = Vec::new();
        let (at, shown) = match (&self.gesture, &self.hover) {
            (Some(g), _) => {
                let m = g.shown();
                let Some(from) = anchor(level, &m) else {
                    return out;
                };
                let pts: Vec<Vec3> = m.path.iter().map(|p| from + *p).collect();
                out.extend(pts.windows(2).map(|w| [w[0], w[1]]));
                let now = pts.get(g.aim.index).copied().unwrap_or(g.aim.at);
                out.push([g.aim.at, now]);
                (now, true)
            }
            (None, Some(a)) => (a.at, false),
            (None, None) => return out,
        };
        let r = if shown { 0.3 } else { 0.22 };
        let ends = [Vec3::X, Vec3::Y, Vec3::Z, -Vec3::X, -Vec3::Y, -Vec3::Z].map(|d| at + d * r);
        for i in 0..3 {
            for j in 0..3 {
                if i != j {
                    out.push([ends[i], ends[j + 3]]);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::heights::{DRAG_POINTS_PER_STEP, WHEEL_QUIET_SECS};

    fn doc() -> Document {
        let level = Level::from_ron_str(
            r#"(version: 3,
            aabbs: [(id: 1, min: (0.0, 0.0, 0.0), max: (2.0, 0.2, 2.0))],
            movers: [(id: 2, object: 1, path: [(0.0, 0.0, 0.0), (4.0, 0.0, 0.0), (4.0, 1.0, 3.0)],
                speed: 1.0)])"#,
        )
        .unwrap();
        let mut doc = Document::new(level, None);
        doc.select_only([ObjectId(1)]);
        doc
    }

    /// The ray from above straight down onto point `i` of the mover (anchor (1, 0.1, 1)).
    fn onto(i: usize) -> Option<(Ray, f32)> {
        let p = [
            Vec3::ZERO,
            Vec3::new(4.0, 0.0, 0.0),
            Vec3::new(4.0, 1.0, 3.0),
        ][i];
        let at = Vec3::new(1.0, 0.1, 1.0) + p;
        Some((Ray::new(at + Vec3::new(0.05, 10.0, 0.0), -Vec3::Y), 100.0))
    }

    fn input(ray: Option<(Ray, f32)>, wheel: f32, now: f64) -> PointerInput {
        PointerInput {
            ray,
            wheel,
            drag: None,
            drag_ended: false,
            now,
            step: 0.5,
        }
    }

    #[test]
    fn a_wheel_gesture_raises_the_aimed_point_in_one_undo_step() {
        let mut doc = doc();
        let mut f = PathPoints::default();
        f.frame(&doc, &input(onto(0), 0.0, 0.0));
        assert_eq!(f.hover, None, "the first point stays");
        f.frame(&doc, &input(onto(2), 0.0, 0.0));
        assert_eq!(f.hover.map(|a| a.index), Some(2));
        assert_eq!(
            f.label(doc.level()).as_deref(),
            Some("mover #2 point 2 y 1.00 m")
        );
        for k in 0..3 {
            f.frame(&doc, &input(onto(2), 1.0, 0.1 * f64::from(k)));
        }
        let g = f.gesture.as_ref().unwrap();
        assert_eq!(g.height(), 2.5);
        assert!(f.label(doc.level()).unwrap().contains("y 2.50 m (+1.50)"));
        assert!(!f.highlight(doc.level()).is_empty());
        assert!(f.take_finished().is_none(), "the wheel is not quiet yet");
        f.frame(&doc, &input(None, 0.0, 0.2 + WHEEL_QUIET_SECS));
        assert!(f.gesture.is_none());
        let e = f.take_finished().unwrap();
        assert!(f.take_finished().is_none(), "taken once");
        let before = doc.history().1;
        doc.apply_merging(e.label, e.edit, e.merge_key);
        assert_eq!(doc.level().movers[0].path[2], Vec3::new(4.0, 2.5, 3.0));
        assert_eq!(doc.history().1, before + 1);
        doc.undo();
        assert_eq!(doc.level().movers[0].path[2].y, 1.0);
    }

    #[test]
    fn a_drag_lowers_a_point_and_nothing_aims_without_a_selected_mover() {
        let mut doc = doc();
        let mut f = PathPoints::default();
        let drag = |d: Option<f32>, ended: bool| PointerInput {
            drag: d,
            drag_ended: ended,
            ..input(onto(1), 0.0, 0.0)
        };
        f.frame(&doc, &drag(None, false));
        f.frame(&doc, &drag(Some(-DRAG_POINTS_PER_STEP * 2.5), false));
        assert_eq!(f.gesture.as_ref().map(PointGesture::height), Some(-1.0));
        f.frame(&doc, &drag(Some(0.0), true));
        let e = f.take_finished().unwrap();
        doc.apply_merging(e.label, e.edit, e.merge_key);
        assert_eq!(doc.level().movers[0].path[1], Vec3::new(4.0, -1.0, 0.0));
        // A gesture that moves nothing makes no step; with nothing selected nothing is aimed.
        f.frame(&doc, &drag(Some(1.0), false));
        f.frame(&doc, &drag(None, false));
        assert!(f.take_finished().is_none());
        doc.clear_selection();
        f.frame(&doc, &input(onto(1), 0.0, 0.0));
        assert!(!f.wants_pointer());
    }
}
