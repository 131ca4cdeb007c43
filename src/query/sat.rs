//! Separating-axis tests with their workings (Game Physics Cookbook, chapter 10, "Separating Axis Theorem").
//!
//! Two convex shapes are disjoint exactly when some axis separates their projections. For two boxes the
//! candidates are the 3 face normals of each and the 9 cross products of their edges. Fixed against the
//! Cookbook's defects: each box's interval is its own (the book's `OverlapOnAxis` projects `obb1` twice), and a
//! cross-product axis whose length is below [`PARALLEL_AXIS_EPSILON`] (parallel edges) is skipped rather than
//! normalised into noise; the face axes cover that case.
//!
//! The boolean tests in [`super::overlap`] (`aabb_obb`, `obb_obb`) run the very same arithmetic, stopping at
//! the first separating axis, so the report and the test always agree.

use glam::{Mat3, Vec3};
use serde::{Deserialize, Serialize};

use super::SAT_EPSILON;
use crate::shape::{Aabb, Interval, Obb};

/// Squared length below which a cross-product axis counts as degenerate (edges parallel) and is skipped.
pub const PARALLEL_AXIS_EPSILON: f32 = 1e-12;

/// Added to each `|a_i · b_j|` on the cross-product axes so that rounding in the rotation between the boxes never yields a false
/// separation on a near-degenerate cross axis (Gottschalk, "OBBTree", and the Cookbook's robustness notes).
pub const ABS_ROTATION_PAD: f32 = 1e-6;

/// One tested axis and both shapes' projections on it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SatAxis {
    /// Unit axis in world space.
    pub axis: Vec3,
    /// First shape's projection interval (world distance along `axis`).
    pub a: Interval,
    /// Second shape's projection interval.
    pub b: Interval,
}

/// Every axis tested, in order (first box's faces, second box's faces, then the edge cross products
/// `a_i × b_j` for `i, j` in order, degenerate ones left out), and which one separates.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SatReport {
    /// The axes tested. Empty when either box is invalid.
    pub axes: Vec<SatAxis>,
    /// Index into `axes` of the first separating axis, or `None` when the boxes overlap (touching counts).
    pub separating: Option<usize>,
}

impl SatReport {
    /// Whether the two shapes overlap (no axis separates them and the input was valid).
    #[must_use]
    pub fn overlaps(&self) -> bool {
        !self.axes.is_empty() && self.separating.is_none()
    }
}

/// Which candidate axis.
#[derive(Clone, Copy, Debug)]
pub(crate) enum AxisKind {
    /// Face normal `i` of the first box.
    FaceA(usize),
    /// Face normal `j` of the second box.
    FaceB(usize),
    /// `a_i × b_j`.
    Cross(usize, usize),
}

/// One candidate axis's numbers in the first box's frame: `t` is the centre offset's projection, `ra` and
/// `rb` the boxes' projected radii, all measured along the un-normalised axis (unit for faces).
#[derive(Clone, Copy, Debug)]
pub(crate) struct AxisNumbers {
    pub kind: AxisKind,
    pub t: f32,
    pub ra: f32,
    pub rb: f32,
}

impl AxisNumbers {
    /// Separated with a gap beyond [`SAT_EPSILON`] of the pair's scale on this axis.
    #[inline]
    pub fn separates(&self) -> bool {
        let gap = self.t.abs() - (self.ra + self.rb);
        gap > SAT_EPSILON * (self.t.abs() + self.ra + self.rb)
    }
}

/// The 15-axis OBB–OBB test (Gottschalk's formulation, in the first box's frame). Calls `visit` for each
/// non-degenerate axis in order; stops when `visit` returns `false`. Returns whether some axis separated.
#[inline]
pub(crate) fn box_box_sat(
    ca: Vec3,
    rot_a: &Mat3,
    ha: Vec3,
    cb: Vec3,
    rot_b: &Mat3,
    hb: Vec3,
    mut visit: impl FnMut(&AxisNumbers) -> bool,
) -> bool {
    let a = [rot_a.x_axis, rot_a.y_axis, rot_a.z_axis];
    let b = [rot_b.x_axis, rot_b.y_axis, rot_b.z_axis];
    // r[i][j] = a_i · b_j; t in a's frame.
    let mut r = [[0.0f32; 3]; 3];
    let mut abs_r = [[0.0f32; 3]; 3];
    let mut padded = [[0.0f32; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            r[i][j] = a[i].dot(b[j]);
            abs_r[i][j] = r[i][j].abs();
            // Gottschalk's pad: rounding in r must not let a near-parallel pair's tiny cross axis claim a
            // separation that its (inexact) projections do not support.
            // Face axes are exact unit axes and need no pad.
            padded[i][j] = abs_r[i][j] + ABS_ROTATION_PAD;
        }
    }
    let d = cb - ca;
    let t = [d.dot(a[0]), d.dot(a[1]), d.dot(a[2])];
    let mut separated = false;
    // Keep going while `visit` asks to: the overlap tests stop at the first separating axis, the report lists
    // every axis.
    let mut check = |n: AxisNumbers| {
        separated |= n.separates();
        visit(&n)
    };
    for i in 0..3 {
        let rb = hb[0] * abs_r[i][0] + hb[1] * abs_r[i][1] + hb[2] * abs_r[i][2];
        let n = AxisNumbers {
            kind: AxisKind::FaceA(i),
            t: t[i],
            ra: ha[i],
            rb,
        };
        if !check(n) {
            return separated;
        }
    }
    for j in 0..3 {
        let ra = ha[0] * abs_r[0][j] + ha[1] * abs_r[1][j] + ha[2] * abs_r[2][j];
        let tj = t[0] * r[0][j] + t[1] * r[1][j] + t[2] * r[2][j];
        let n = AxisNumbers {
            kind: AxisKind::FaceB(j),
            t: tj,
            ra,
            rb: hb[j],
        };
        if !check(n) {
            return separated;
        }
    }
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            // L = a_i × b_j expressed in a's frame has components (0 at i, ±r[i2][j], ∓r[i1][j]).
            let len2 = r[i1][j] * r[i1][j] + r[i2][j] * r[i2][j];
            if len2 < PARALLEL_AXIS_EPSILON {
                continue;
            }
            let tl = t[i2] * r[i1][j] - t[i1] * r[i2][j];
            let ra = ha[i1] * padded[i2][j] + ha[i2] * padded[i1][j];
            let rb = hb[j1] * padded[i][j2] + hb[j2] * padded[i][j1];
            let n = AxisNumbers {
                kind: AxisKind::Cross(i, j),
                t: tl,
                ra,
                rb,
            };
            if !check(n) {
                return separated;
            }
        }
    }
    separated
}

/// The full report for two valid boxes.
fn report(ca: Vec3, rot_a: &Mat3, ha: Vec3, cb: Vec3, rot_b: &Mat3, hb: Vec3) -> SatReport {
    let mut axes = Vec::with_capacity(15);
    let mut separating = None;
    let a_cols = [rot_a.x_axis, rot_a.y_axis, rot_a.z_axis];
    let b_cols = [rot_b.x_axis, rot_b.y_axis, rot_b.z_axis];
    box_box_sat(ca, rot_a, ha, cb, rot_b, hb, |n| {
        let world = match n.kind {
            AxisKind::FaceA(i) => a_cols[i],
            AxisKind::FaceB(j) => b_cols[j],
            AxisKind::Cross(i, j) => a_cols[i].cross(b_cols[j]),
        };
        let axis = world.normalize_or_zero();
        // The decision is the padded test's (robust); the intervals shown are the exact projections on the
        // unit axis, in f64 so that huge coordinates give infinities rather than NaN.
        let project = |c: Vec3, cols: &[Vec3; 3], h: Vec3| {
            let l = axis.as_dvec3();
            let mid = c.as_dvec3().dot(l);
            let r: f64 = (0..3)
                .map(|k| f64::from(h[k]) * cols[k].as_dvec3().dot(l).abs())
                .sum();
            Interval::new((mid - r) as f32, (mid + r) as f32)
        };
        if n.separates() && separating.is_none() {
            separating = Some(axes.len());
        }
        axes.push(SatAxis {
            axis,
            a: project(ca, &a_cols, ha),
            b: project(cb, &b_cols, hb),
        });
        true
    });
    SatReport { axes, separating }
}

/// All separating-axis candidates for an axis-aligned box against an oriented box, with both projection
/// intervals on each, and the first separating axis.
///
/// Touching boxes overlap (an axis separates only beyond [`SAT_EPSILON`] of the pair's scale). Either box
/// invalid: an empty report.
///
/// ```
/// use collidoscope::{glam::{Mat3, Vec3}, shape::{Aabb, Obb}, query::sat::aabb_obb_axes};
/// let a = Aabb::new(Vec3::splat(-1.0), Vec3::splat(1.0));
/// // A unit box 3 units along x: on the x axis, a = [-1, 1] and b = [2, 4]: separated.
/// let b = Obb::new(Vec3::new(3.0, 0.0, 0.0), Vec3::ONE, Mat3::IDENTITY);
/// let r = aabb_obb_axes(&a, &b);
/// let s = r.separating.unwrap();
/// assert_eq!(r.axes[s].axis, Vec3::X);
/// assert_eq!((r.axes[s].a.max, r.axes[s].b.min), (1.0, 2.0));
/// ```
#[must_use]
pub fn aabb_obb_axes(aabb: &Aabb, obb: &Obb) -> SatReport {
    if !aabb.is_valid() || !obb.is_valid() {
        return SatReport::default();
    }
    report(
        aabb.center(),
        &Mat3::IDENTITY,
        aabb.half_extents(),
        obb.center,
        &obb.rotation,
        obb.half_extents,
    )
}

/// All separating-axis candidates for two oriented boxes (15 axes, degenerate cross products skipped), with
/// both projection intervals on each, and the first separating axis.
///
/// Touching boxes overlap. Either box invalid: an empty report.
///
/// ```
/// use collidoscope::{glam::{Mat3, Vec3}, shape::Obb, query::sat::obb_obb_axes};
/// let a = Obb::new(Vec3::ZERO, Vec3::ONE, Mat3::IDENTITY);
/// let b = Obb::new(Vec3::new(1.5, 0.0, 0.0), Vec3::ONE, Mat3::from_rotation_y(0.3));
/// let r = obb_obb_axes(&a, &b);
/// assert!(r.separating.is_none()); // they overlap
/// // Same-orientation pairs would have 9 parallel cross axes; here a_y × b_y is the only degenerate one.
/// assert_eq!(r.axes.len(), 14);
/// ```
#[must_use]
pub fn obb_obb_axes(a: &Obb, b: &Obb) -> SatReport {
    if !a.is_valid() || !b.is_valid() {
        return SatReport::default();
    }
    report(
        a.center,
        &a.rotation,
        a.half_extents,
        b.center,
        &b.rotation,
        b.half_extents,
    )
}
