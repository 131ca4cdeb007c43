//! The slab method: rays against axis-aligned and oriented boxes, with their workings.

use glam::{BVec3A, Mat3A, Vec3, Vec3A};
use serde::{Deserialize, Serialize};

use super::super::{RayHit, d3, f3, finite_hit, unit};
use super::max_t_ok;
use crate::shape::{Aabb, Interval, Obb, Ray};

/// The workings of the slab method: each slab's entry/exit interval and their intersection.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SlabTrace {
    /// Slab `i`'s `[t_enter, t_exit]` (box axis `i`): `-inf..inf` for a ray parallel to and inside the slab,
    /// empty (`+inf..-inf`) when parallel and outside.
    pub axes: [Interval; 3],
    /// `max of mins ..= min of maxes`, clipped to `t >= 0`, or `None` when that is empty (a miss).
    pub hit: Option<Interval>,
}

/// The `t` interval in which `o + t d` lies in `min..=max` on one axis. Exact for axis-parallel rays: no
/// division by zero, no `0 * inf`.
#[inline]
pub(super) fn slab(o: f32, d: f32, min: f32, max: f32) -> Interval {
    if d == 0.0 {
        if o < min || o > max {
            Interval::EMPTY
        } else {
            Interval::EVERYTHING
        }
    } else {
        let inv = 1.0 / d;
        let (mut t1, mut t2) = ((min - o) * inv, (max - o) * inv);
        if t1.is_nan() || t2.is_nan() {
            // 0 * inf (a subnormal d, or an infinite d or o from a far-away frame change): divide instead, and
            // an origin and direction both infinite never lie in the slab.
            (t1, t2) = ((min - o) / d, (max - o) / d);
            if t1.is_nan() || t2.is_nan() {
                return Interval::EMPTY;
            }
        }
        Interval::new(t1.min(t2), t1.max(t2))
    }
}

/// Slab intervals of a ray in a box's local frame. `min`/`max` are the box corners in that frame.
fn slabs_local(origin: Vec3, dir: Vec3, min: Vec3, max: Vec3) -> SlabTrace {
    let axes = [
        slab(origin.x, dir.x, min.x, max.x),
        slab(origin.y, dir.y, min.y, max.y),
        slab(origin.z, dir.z, min.z, max.z),
    ];
    let lo = axes[0].min.max(axes[1].min).max(axes[2].min).max(0.0);
    let hi = axes[0].max.min(axes[1].max).min(axes[2].max);
    let hit = (lo <= hi).then_some(Interval::new(lo, hi));
    SlabTrace { axes, hit }
}

/// The ray's origin and direction in the box's frame, computed in f64 so that `origin - centre` cannot
/// overflow into `0 * inf`; far-away origins come back as infinities, which the slab test handles.
fn to_obb_frame(ray: &Ray, obb: &Obb) -> (Vec3, Vec3) {
    let rt = obb.rotation.transpose().as_dmat3();
    let o = rt * (d3(ray.origin) - d3(obb.center));
    let d = rt * d3(ray.dir);
    (f3(o), f3(d))
}

/// A slab trace for an invalid ray or box: nothing entered, no hit.
const EMPTY_TRACE: SlabTrace = SlabTrace {
    axes: [Interval::EMPTY; 3],
    hit: None,
};

/// The slab method's workings for a ray against an axis-aligned box.
///
/// `axes[i]` is the interval of `t` in which the ray lies between the two faces perpendicular to axis `i`,
/// ordered `min <= max`. An axis-parallel ray gets `-inf..inf` when it runs inside that slab and an empty
/// interval when outside: exact, with no `0.00001` patch (seed 002's defect). An invalid ray or box gives
/// empty axes and no hit.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Aabb, Ray}, query::ray::ray_aabb_slabs};
/// let b = Aabb::new(Vec3::new(2.0, -1.0, -1.0), Vec3::new(4.0, 1.0, 1.0));
/// let tr = ray_aabb_slabs(&Ray::new(Vec3::ZERO, Vec3::X), &b);
/// // x slab: (2 - 0) / 1 = 2 to (4 - 0) / 1 = 4; y and z: parallel and inside.
/// assert_eq!((tr.axes[0].min, tr.axes[0].max), (2.0, 4.0));
/// assert_eq!(tr.axes[1].min, f32::NEG_INFINITY);
/// let hit = tr.hit.unwrap();
/// assert_eq!((hit.min, hit.max), (2.0, 4.0));
/// ```
#[must_use]
pub fn ray_aabb_slabs(ray: &Ray, aabb: &Aabb) -> SlabTrace {
    if !ray.is_valid() || !aabb.is_valid() {
        return EMPTY_TRACE;
    }
    slabs_local(ray.origin, ray.dir, aabb.min, aabb.max)
}

/// The slab method's workings for a ray against an oriented box, in the box's local axes.
///
/// `axes[i]` is the slab between the two faces perpendicular to the box's local axis `i`
/// (`rotation` column `i`). Same conventions as [`ray_aabb_slabs`].
///
/// ```
/// use collidoscope::{glam::{Mat3, Vec3}, shape::{Obb, Ray}, query::ray::ray_obb_slabs};
/// // A box turned 90 degrees about z: its local x axis is world y.
/// let b = Obb::new(Vec3::new(0.0, 5.0, 0.0), Vec3::ONE, Mat3::from_rotation_z(std::f32::consts::FRAC_PI_2));
/// let tr = ray_obb_slabs(&Ray::new(Vec3::ZERO, Vec3::Y), &b);
/// let x = tr.axes[0]; // the slab along world y: t from 4 to 6
/// assert!((x.min - 4.0).abs() < 1e-5 && (x.max - 6.0).abs() < 1e-5);
/// ```
#[must_use]
pub fn ray_obb_slabs(ray: &Ray, obb: &Obb) -> SlabTrace {
    if !ray.is_valid() || !obb.is_valid() {
        return EMPTY_TRACE;
    }
    let (o, d) = to_obb_frame(ray, obb);
    slabs_local(o, d, -obb.half_extents, obb.half_extents)
}

/// Ray against a solid axis-aligned box (slab method, exact for axis-parallel rays).
///
/// The normal is the entered face's (either face's at an edge or corner). Conventions in the module docs.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Aabb, Ray}, query::ray::ray_aabb};
/// let b = Aabb::new(Vec3::new(2.0, -1.0, -1.0), Vec3::new(4.0, 1.0, 1.0));
/// // dir has length 2, so the face x = 2 is reached at t = (2 - 0) / 2 = 1.
/// let hit = ray_aabb(&Ray::new(Vec3::ZERO, Vec3::new(2.0, 0.0, 0.0)), &b, 10.0).unwrap();
/// assert_eq!((hit.t, hit.point, hit.normal), (1.0, Vec3::new(2.0, 0.0, 0.0), -Vec3::X));
/// assert!(ray_aabb(&Ray::new(Vec3::ZERO, Vec3::Y), &b, 10.0).is_none());
/// ```
#[must_use]
#[inline]
pub fn ray_aabb(ray: &Ray, aabb: &Aabb, max_t: f32) -> Option<RayHit> {
    let hit = slab_entry(
        ray.origin.into(),
        ray.dir.into(),
        aabb.min.into(),
        aabb.max.into(),
        max_t,
    )?;
    // Validity is only checked before answering `Some`: a miss is right for invalid input too.
    if !max_t_ok(max_t) || !ray.is_valid() || !aabb.is_valid() {
        return None;
    }
    let normal = match hit.axis {
        None => -unit(ray.dir),
        Some(axis) => axis_normal(axis, ray.dir.into()).into(),
    };
    finite_hit(RayHit {
        t: hit.t,
        point: ray.at(hit.t),
        normal,
    })
}

/// A box entry from [`slab_entry`]: the parameter and the entered face's axis (`None`: the origin is inside).
struct SlabEntry {
    t: f32,
    axis: Option<usize>,
}

/// The outward unit normal of the face perpendicular to `axis` that a ray with direction `d` enters: `-1` or
/// `1` against `d`'s component on that axis, `+0` on the others. Selected by masks, without indexing a vector
/// by `axis` (a jump table, whose indirect jump the entered axis of incoherent rays mispredicts).
#[inline]
fn axis_normal(axis: usize, d: Vec3A) -> Vec3A {
    debug_assert!(axis < 3, "axis {axis}");
    let sign = Vec3A::select(d.cmpgt(Vec3A::ZERO), Vec3A::NEG_ONE, Vec3A::ONE);
    let on_axis = BVec3A::new(axis == 0, axis == 1, axis == 2);
    Vec3A::select(on_axis, sign, Vec3A::ZERO)
}

/// Slab test for a hit: the first `t` in `0..=max_t` at which `o + t d` is in `min..=max`, with the entered
/// face. Fast path with the reciprocal direction, one SSE register per vector (every lane operation rounds as
/// `Vec3`'s scalar one would, and `min`/`max` pick the same operand); axis-parallel and subnormal directions
/// take the exact interval path. Inputs are not validated here (callers check before answering).
#[inline]
fn slab_entry(o: Vec3A, d: Vec3A, min: Vec3A, max: Vec3A, max_t: f32) -> Option<SlabEntry> {
    let inv = d.recip();
    let (near, far, axis) = if (inv.is_finite_mask() & d.is_finite_mask()).all() {
        let t1 = (min - o) * inv;
        let t2 = (max - o) * inv;
        let lo = t1.min(t2);
        let far = t1.max(t2).min_element();
        // The entered face: the largest entry, ties to the lowest axis (which also decides the sign of a zero).
        let (x, y, z) = (lo.x, lo.y, lo.z);
        if x >= y && x >= z {
            (x, far, 0)
        } else if y >= z {
            (y, far, 1)
        } else {
            (z, far, 2)
        }
    } else {
        entry_parallel(o.into(), d.into(), min.into(), max.into())
    };
    if !(near <= far && far >= 0.0 && near <= max_t) {
        return None;
    }
    Some(if near < 0.0 {
        SlabEntry { t: 0.0, axis: None }
    } else {
        SlabEntry {
            t: near,
            axis: Some(axis),
        }
    })
}

/// [`slab_entry`]'s exact path for axis-parallel, subnormal or non-finite directions: `(near, far, axis)`.
#[cold]
#[inline(never)]
fn entry_parallel(o: Vec3, d: Vec3, min: Vec3, max: Vec3) -> (f32, f32, usize) {
    let axes = slabs_local(o, d, min, max).axes;
    let mut axis = 0;
    for i in 1..3 {
        if axes[i].min > axes[axis].min {
            axis = i;
        }
    }
    (
        axes[axis].min,
        axes[0].max.min(axes[1].max).min(axes[2].max),
        axis,
    )
}

/// Ray against a solid oriented box: the ray is taken into the box's frame and cast against its slabs.
///
/// Conventions in the module docs.
///
/// ```
/// use collidoscope::{glam::{Mat3, Vec3}, shape::{Obb, Ray}, query::ray::ray_obb};
/// // A box of half size 1 turned 45 degrees about y, 5 units down +x: its corner points at the ray,
/// // at x = 5 - sqrt(2).
/// let b = Obb::new(Vec3::new(5.0, 0.0, 0.0), Vec3::ONE, Mat3::from_rotation_y(std::f32::consts::FRAC_PI_4));
/// let hit = ray_obb(&Ray::new(Vec3::ZERO, Vec3::X), &b, 100.0).unwrap();
/// assert!((hit.t - (5.0 - 2f32.sqrt())).abs() < 1e-5);
/// ```
#[must_use]
#[inline]
pub fn ray_obb(ray: &Ray, obb: &Obb, max_t: f32) -> Option<RayHit> {
    // The change of frame as `rotation.transpose() * v` computes it (each lane the dot product of a column
    // with `v`, in the same order), on SSE registers.
    let rotation = Mat3A::from(obb.rotation);
    let oc = Vec3A::from(ray.origin) - Vec3A::from(obb.center);
    let (mut o, mut d) = (
        rotation.mul_transpose_vec3a(oc),
        rotation.mul_transpose_vec3a(Vec3A::from(ray.dir)),
    );
    if !(o.is_finite_mask() & d.is_finite_mask()).all() {
        // origin - centre overflowed f32: redo the change of frame in f64.
        let (wo, wd) = to_obb_frame(ray, obb);
        (o, d) = (wo.into(), wd.into());
    }
    let half = Vec3A::from(obb.half_extents);
    let hit = slab_entry(o, d, -half, half, max_t)?;
    if !max_t_ok(max_t) || !ray.is_valid() || !obb.is_valid() {
        return None;
    }
    let normal = match hit.axis {
        None => -unit(ray.dir),
        Some(axis) => {
            // `Vec3::normalize`'s rounding: times the reciprocal length (`Vec3A::normalize` divides).
            let n = rotation * axis_normal(axis, d);
            (n * (1.0 / n.length())).into()
        }
    };
    finite_hit(RayHit {
        t: hit.t,
        point: ray.at(hit.t),
        normal,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The masked normal is the one an indexed write gives: `-1` or `1` against the direction's component on
    /// the axis (`1` for `+0`, `-0` and NaN: not `> 0`), `+0` elsewhere, bit for bit.
    #[test]
    fn axis_normal_is_the_indexed_unit_vector() {
        let components = [
            1.5,
            -2.0,
            0.0,
            -0.0,
            f32::NAN,
            f32::INFINITY,
            -f32::MIN_POSITIVE,
        ];
        for axis in 0..3 {
            for &a in &components {
                for &b in &components {
                    let d = Vec3A::new(a, b, -a);
                    let mut expected = Vec3::ZERO;
                    expected[axis] = if d[axis] > 0.0 { -1.0 } else { 1.0 };
                    let got = Vec3::from(axis_normal(axis, d));
                    assert_eq!(
                        got.to_array().map(f32::to_bits),
                        expected.to_array().map(f32::to_bits),
                        "axis {axis}, d {d}"
                    );
                }
            }
        }
    }
}
