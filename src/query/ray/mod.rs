//! Ray casts (Game Physics Cookbook, chapter 11): `fn(&Ray, &Shape, max_t) -> Option<RayHit>`.
//!
//! Conventions (every function here):
//! - `t` is in units of `ray.dir` (which need not be unit); a hit counts when `0 <= t <= max_t`. A NaN or
//!   negative `max_t` gives `None`; `f32::INFINITY` means unbounded.
//! - Touching counts: a ray that grazes a sphere, a box edge or a cylinder rim hits it.
//! - A ray whose origin is strictly inside a solid (sphere, box, cylinder), or on its surface heading out,
//!   hits at `t = 0` with `normal = -dir.normalize()`. On the surface heading in, it hits at `t = 0` with the
//!   surface normal.
//! - Planes and triangles are two-sided: the normal is flipped to face against `dir`.
//! - An invalid ray (zero or non-finite `dir`, non-finite origin) or shape gives `None`.

use glam::{DVec2, DVec3, Vec3, Vec3A};
use serde::{Deserialize, Serialize};

use super::triangle::moller_trumbore;
use super::{Cull, RayHit, d3, f3, finite_hit, unit};
use crate::shape::{Aabb, Cylinder, Interval, Obb, Plane, Ray, Sphere, Triangle, Wall};

mod capsule;

pub use capsule::ray_capsule;

/// The workings of the slab method: each slab's entry/exit interval and their intersection.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SlabTrace {
    /// Slab `i`'s `[t_enter, t_exit]` (box axis `i`): `-inf..inf` for a ray parallel to and inside the slab,
    /// empty (`+inf..-inf`) when parallel and outside.
    pub axes: [Interval; 3],
    /// `max of mins ..= min of maxes`, clipped to `t >= 0`, or `None` when that is empty (a miss).
    pub hit: Option<Interval>,
}

/// Whether `max_t` admits some hit.
#[inline]
pub(crate) fn max_t_ok(max_t: f32) -> bool {
    max_t >= 0.0
}

/// The `t` interval in which `o + t d` lies in `min..=max` on one axis. Exact for axis-parallel rays: no
/// division by zero, no `0 * inf`.
#[inline]
fn slab(o: f32, d: f32, min: f32, max: f32) -> Interval {
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
    let hit = slab_entry(ray.origin, ray.dir, aabb.min, aabb.max, max_t)?;
    // Validity is only checked before answering `Some`: a miss is right for invalid input too.
    if !max_t_ok(max_t) || !ray.is_valid() || !aabb.is_valid() {
        return None;
    }
    let normal = match hit.axis {
        None => -unit(ray.dir),
        Some(axis) => axis_normal(axis, ray.dir[axis]),
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

/// The outward unit normal of the face perpendicular to `axis` that a ray with that direction component enters.
#[inline]
fn axis_normal(axis: usize, dir_component: f32) -> Vec3 {
    let mut n = Vec3::ZERO;
    n[axis] = if dir_component > 0.0 { -1.0 } else { 1.0 };
    n
}

/// Slab test for a hit: the first `t` in `0..=max_t` at which `o + t d` is in `min..=max`, with the entered
/// face. Fast path with the reciprocal direction; axis-parallel and subnormal directions take the exact
/// interval path. Inputs are not validated here (callers check before answering).
#[inline]
fn slab_entry(o: Vec3, d: Vec3, min: Vec3, max: Vec3, max_t: f32) -> Option<SlabEntry> {
    let inv = d.recip();
    let (near, far, axis) = if inv.is_finite() && d.is_finite() {
        let t1 = (min - o) * inv;
        let t2 = (max - o) * inv;
        let lo = t1.min(t2);
        let hi = t1.max(t2);
        let axis = if lo.x >= lo.y && lo.x >= lo.z {
            0
        } else if lo.y >= lo.z {
            1
        } else {
            2
        };
        (lo[axis], hi.min_element(), axis)
    } else {
        let trace = slabs_local(o, d, min, max);
        let axes = trace.axes;
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
    let rt = obb.rotation.transpose();
    let (mut o, mut d) = (rt * (ray.origin - obb.center), rt * ray.dir);
    if !(o.is_finite() && d.is_finite()) {
        // origin - centre overflowed f32: redo the change of frame in f64.
        (o, d) = to_obb_frame(ray, obb);
    }
    let hit = slab_entry(o, d, -obb.half_extents, obb.half_extents, max_t)?;
    if !max_t_ok(max_t) || !ray.is_valid() || !obb.is_valid() {
        return None;
    }
    let normal = match hit.axis {
        None => -unit(ray.dir),
        Some(axis) => (obb.rotation * axis_normal(axis, d[axis])).normalize(),
    };
    finite_hit(RayHit {
        t: hit.t,
        point: ray.at(hit.t),
        normal,
    })
}

/// Ray against a solid sphere, with the cancellation-free root form (in f32, redone in f64 when the
/// coordinates are too large for f32 squares).
///
/// Conventions in the module docs.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Ray, Sphere}, query::ray::ray_sphere};
/// let s = Sphere::new(Vec3::new(0.0, 0.0, 10.0), 2.0);
/// // Straight at the centre: the near surface is at z = 8.
/// let hit = ray_sphere(&Ray::new(Vec3::ZERO, Vec3::Z), &s, f32::INFINITY).unwrap();
/// assert_eq!((hit.t, hit.normal), (8.0, -Vec3::Z));
/// // Inside: t = 0 and the normal faces back along the ray.
/// let hit = ray_sphere(&Ray::new(s.center, Vec3::X), &s, 1.0).unwrap();
/// assert_eq!((hit.t, hit.normal), (0.0, -Vec3::X));
/// ```
#[must_use]
#[inline]
pub fn ray_sphere(ray: &Ray, sphere: &Sphere, max_t: f32) -> Option<RayHit> {
    // Fast path in f32 with the cancellation-free discriminant; validity is checked only before answering
    // `Some` (a miss is the right answer for invalid input too), and anything that overflows f32 is redone in
    // f64. The vectors are held as `Vec3A` (one SSE register each): every lane operation, dot product
    // ((x + y) + z) and cross product rounds exactly as `Vec3`'s would, in fewer instructions.
    let o = Vec3A::from(ray.origin);
    let d = Vec3A::from(ray.dir);
    let center = Vec3A::from(sphere.center);
    let oc = o - center;
    let r = sphere.radius;
    let a = d.length_squared();
    let half_b = oc.dot(d);
    let oc2 = oc.length_squared();
    let r2 = r * r;
    let c = oc2 - r2;
    // `s * 0` is ±0 exactly when `s` is finite (NaN for infinities and NaN), so this asks in one comparison
    // for a > 0 and every input finite with a, half_b and c not overflowing.
    let s = a + c + half_b;
    if !(s * 0.0 + a > 0.0) {
        return ray_sphere_wide(ray, sphere, max_t);
    }
    if c <= 0.0 && (c < 0.0 || half_b >= 0.0) {
        // Inside, or on the surface heading out.
        return valid_hit(sphere, max_t, 0.0, ray.origin, -unit(ray.dir));
    }
    if half_b > 0.0 {
        return None; // Outside and heading away.
    }
    // The textbook discriminant is cheaper and accurate while it is not small against half_b² (its rounding
    // error is about ε·half_b²); near tangency or for far-away small spheres it cancels, and then
    // a·r² - |oc × d|² (Lagrange's identity: a·(r² - squared distance from the centre to the line)) is used,
    // unless the textbook value is already clearly negative. Squares beyond f32's range go to f64 (a·c alone
    // overflowing leaves disc = -inf, and then the Lagrange form decides).
    let hb2 = half_b * half_b;
    let mut disc = hb2 - a * c;
    if disc < hb2 * (1.0 / 64.0) {
        if clear_miss(disc, a, oc2) {
            return None;
        }
        disc = a * r2 - oc.cross(d).length_squared();
        if !(disc * 0.0 >= 0.0) {
            return ray_sphere_wide(ray, sphere, max_t); // a·r² or |oc × d|² overflowed.
        }
    } else if !(disc < f32::INFINITY) {
        return ray_sphere_wide(ray, sphere, max_t); // half_b² overflowed.
    }
    // -half_b >= 0 here, so the entry root c / (-half_b + sqrt(disc)) has no cancellation. A negative disc
    // (a miss) makes denom and t NaN, which `t <= max_t` turns away.
    let denom = -half_b + disc.sqrt();
    let t = if denom == 0.0 { 0.0 } else { c / denom };
    // Otherwise t >= 0 (c >= 0, denom > 0), so `t <= max_t` also rejects a negative or NaN max_t; the
    // radius's sign is the only validity left to check (the finiteness test above covered every other input).
    if !(t <= max_t && r > 0.0) {
        return None;
    }
    let point = o + d * t;
    let normal = (point - center) * (1.0 / r);
    let hit = RayHit {
        t,
        point: point.into(),
        normal: normal.into(),
    };
    // One test in the common case: finite sums mean every coordinate is finite, and t (in 0..=max_t) is
    // finite whenever the point is. Past a sum that overflowed, a hit whose numbers are finite stands;
    // otherwise f32 ran out of range (a point beyond it, or 1 / r for a subnormal radius) and f64 decides.
    if (point + normal).is_finite() {
        Some(hit)
    } else {
        finite_hit(hit).or_else(|| ray_sphere_wide(ray, sphere, max_t))
    }
}

/// [`ray_sphere_f64`] for [`ray_sphere`]'s rare hand-overs, through an out-parameter: the call then writes
/// no `Option<RayHit>` into the caller's result, which lets the caller's common paths build their answer in
/// registers (a returned 32-byte `Option` made every query copy its answer through memory).
#[inline]
fn ray_sphere_wide(ray: &Ray, sphere: &Sphere, max_t: f32) -> Option<RayHit> {
    #[cold]
    #[inline(never)]
    fn wide_into(ray: &Ray, sphere: &Sphere, max_t: f32, out: &mut RayHit) -> bool {
        ray_sphere_f64(ray, sphere, max_t)
            .map(|hit| *out = hit)
            .is_some()
    }
    let mut hit = RayHit {
        t: 0.0,
        point: Vec3::ZERO,
        normal: Vec3::ZERO,
    };
    wide_into(ray, sphere, max_t, &mut hit).then_some(hit)
}

/// Whether the textbook discriminant `disc = fl(half_b² - a·c)` is so negative that the Lagrange form
/// `fl(a·r² - |oc × d|²)`, which [`ray_sphere`] would compute next, is negative too: a miss, told without the
/// cross product. Only called with `c >= 0` (origin outside or on the sphere), every input finite and `a > 0`.
///
/// Why the answer is the Lagrange form's (u = 2⁻²⁴; A = |d|², O = |oc|², R = r² and
/// D = (oc·d)² - A(O - R) = A·R - |oc × d|² in exact arithmetic on the same f32 `oc`, `d`, `r`): the
/// standard error bounds of dot and cross products give |disc - D| <= 17u·A(O + R) and
/// |Lagrange - D| <= 10u·A(O + R) to first order, and c >= 0 means R <= O(1 + 4u), so the two together stay
/// below 55u·A·O < A·O·2⁻¹⁸ (`tests::discriminant_errors_within_bound` measures them). Asking for
/// -disc > fl(A·O)·2⁻¹⁵, eight times that, leaves D < -10u·A(O + R): the Lagrange value is negative too.
/// Gradual underflow adds absolute errors of at most 2⁻¹⁵⁰ per product, times at most A, O or sqrt(A·O):
/// far below u·A·O while A and O are both above 2⁻⁵⁰, which is also asked. Overflow cannot slip through:
/// an infinite `a * oc2` fails the comparison (`a * c <= a * oc2`, so it is infinite whenever `disc` came
/// from an infinite product), and an infinite `disc * -32768` stands for a true value above `f32::MAX`.
#[inline]
fn clear_miss(disc: f32, a: f32, oc2: f32) -> bool {
    const TINY: f32 = 1.0 / (1u64 << 50) as f32;
    disc * -32768.0 > a * oc2 && a > TINY && oc2 > TINY
}

/// The hit, once the inputs are known valid and the numbers finite.
#[inline]
fn valid_hit(sphere: &Sphere, max_t: f32, t: f32, point: Vec3, normal: Vec3) -> Option<RayHit> {
    // Reaching here, |dir|² + |origin - centre|² - r² + origin · dir was finite, so every input is finite
    // and dir is non-zero: only the radius's sign and max_t remain to check.
    if !(max_t_ok(max_t) && sphere.radius > 0.0) {
        return None;
    }
    finite_hit(RayHit { t, point, normal })
}

/// [`ray_sphere`] in f64, for numbers beyond f32's range (coordinates whose squares overflow, a hit point
/// past `f32::MAX`, the reciprocal of a subnormal radius).
fn ray_sphere_f64(ray: &Ray, sphere: &Sphere, max_t: f32) -> Option<RayHit> {
    if !max_t_ok(max_t) || !ray.is_valid() || !sphere.is_valid() {
        return None;
    }
    let d = d3(ray.dir);
    let oc = d3(ray.origin) - d3(sphere.center);
    let r = f64::from(sphere.radius);
    let a = d.length_squared();
    let half_b = oc.dot(d);
    let c = oc.length_squared() - r * r;
    if c < 0.0 || (c == 0.0 && half_b >= 0.0) {
        return finite_hit(RayHit {
            t: 0.0,
            point: ray.origin,
            normal: -unit(ray.dir),
        });
    }
    if half_b > 0.0 {
        return None;
    }
    let perp = oc - d * (half_b / a);
    let disc = a * (r * r - perp.length_squared());
    if disc < 0.0 {
        return None;
    }
    let denom = -half_b + disc.sqrt();
    let t = if denom > 0.0 { c / denom } else { 0.0 };
    if t > f64::from(max_t) {
        return None;
    }
    let point = d3(ray.origin) + d * t;
    let normal = (point - d3(sphere.center)).normalize();
    finite_hit(RayHit {
        t: t as f32,
        point: f3(point),
        normal: f3(normal),
    })
}

/// Ray against a plane's surface, from either side.
///
/// A ray starting on the plane hits at `t = 0`; a ray parallel to the plane and off it misses. The normal is
/// the plane's unit normal, flipped to face against `dir` (the plane's own normal when `dir` lies in the
/// plane).
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Plane, Ray}, query::ray::ray_plane};
/// let floor = Plane::new(Vec3::Y, 0.0);
/// // From y = 3 going down 1.5 per unit of t: t = 3 / 1.5 = 2.
/// let hit = ray_plane(&Ray::new(Vec3::new(0.0, 3.0, 0.0), Vec3::new(0.0, -1.5, 0.0)), &floor, 5.0).unwrap();
/// assert_eq!((hit.t, hit.normal), (2.0, Vec3::Y));
/// // From below going up: the normal is flipped to face the ray.
/// let hit = ray_plane(&Ray::new(Vec3::new(0.0, -1.0, 0.0), Vec3::Y), &floor, 5.0).unwrap();
/// assert_eq!((hit.t, hit.normal), (1.0, -Vec3::Y));
/// ```
#[must_use]
pub fn ray_plane(ray: &Ray, plane: &Plane, max_t: f32) -> Option<RayHit> {
    if !max_t_ok(max_t) || !ray.is_valid() || !plane.is_valid() {
        return None;
    }
    let n = d3(plane.normal);
    let n_unit = n.normalize();
    let d = d3(ray.dir);
    let o = d3(ray.origin);
    let dist = n.dot(o) - f64::from(plane.d);
    let denom = n.dot(d);
    let facing = |denom: f64| if denom > 0.0 { -n_unit } else { n_unit };
    if dist == 0.0 {
        return finite_hit(RayHit {
            t: 0.0,
            point: ray.origin,
            normal: f3(facing(denom)),
        });
    }
    if denom == 0.0 {
        return None;
    }
    let t = -dist / denom;
    if t < 0.0 || t > f64::from(max_t) {
        return None;
    }
    finite_hit(RayHit {
        t: t as f32,
        point: f3(o + d * t),
        normal: f3(facing(denom)),
    })
}

/// Entry/exit interval of the line `o + t d` (f64) in a finite capped cylinder, with which feature is
/// entered. Returns `(t_enter, t_exit, entered_side)` or `None` when the line misses.
pub(crate) fn line_cylinder_d(
    o: DVec3,
    d: DVec3,
    a: DVec3,
    b: DVec3,
    r: f64,
) -> Option<(f64, f64, bool)> {
    let ab = b - a;
    let height = ab.length();
    let u = ab / height;
    let oc = o - a;
    let o_ax = oc.dot(u);
    let d_ax = d.dot(u);
    // Slab between the caps.
    let (s0, s1) = if d_ax == 0.0 {
        if o_ax < 0.0 || o_ax > height {
            return None;
        }
        (f64::NEG_INFINITY, f64::INFINITY)
    } else {
        let t1 = -o_ax / d_ax;
        let t2 = (height - o_ax) / d_ax;
        (t1.min(t2), t1.max(t2))
    };
    // Infinite side surface.
    let oc_p = oc - u * o_ax;
    let d_p = d - u * d_ax;
    let qa = d_p.length_squared();
    let qc = oc_p.length_squared() - r * r;
    let (c0, c1) = if qa <= 0.0 {
        if qc > 0.0 {
            return None;
        }
        (f64::NEG_INFINITY, f64::INFINITY)
    } else {
        let half_b = oc_p.dot(d_p);
        // Cancellation-free discriminant: r² minus the squared distance from the axis to the line.
        let perp = oc_p - d_p * (half_b / qa);
        let disc = qa * (r * r - perp.length_squared());
        if disc < 0.0 {
            return None;
        }
        let s = disc.sqrt();
        let q = if half_b >= 0.0 {
            -(half_b + s)
        } else {
            -half_b + s
        };
        if q == 0.0 {
            (0.0, 0.0)
        } else {
            let (r0, r1) = (q / qa, qc / q);
            (r0.min(r1), r0.max(r1))
        }
    };
    let enter = s0.max(c0);
    let exit = s1.min(c1);
    (enter <= exit).then_some((enter, exit, c0 >= s0))
}

/// Ray against a solid, finite, capped cylinder (in f64).
///
/// The side is an infinite cylinder clipped by the slab between the caps. The normal is radial on the side,
/// along the axis on a cap (the side's at the rim). Conventions in the module docs.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Cylinder, Ray}, query::ray::ray_cylinder};
/// // Axis from (5, 0, 0) to (5, 4, 0), radius 1: the side facing the origin is at x = 4.
/// let c = Cylinder::new(Vec3::new(5.0, 0.0, 0.0), Vec3::new(5.0, 4.0, 0.0), 1.0);
/// let hit = ray_cylinder(&Ray::new(Vec3::new(0.0, 2.0, 0.0), Vec3::X), &c, 10.0).unwrap();
/// assert_eq!((hit.t, hit.normal), (4.0, -Vec3::X));
/// // From above, straight down onto the cap y = 4.
/// let hit = ray_cylinder(&Ray::new(Vec3::new(5.0, 9.0, 0.0), -Vec3::Y), &c, 10.0).unwrap();
/// assert_eq!((hit.t, hit.normal), (5.0, Vec3::Y));
/// ```
#[must_use]
pub fn ray_cylinder(ray: &Ray, cylinder: &Cylinder, max_t: f32) -> Option<RayHit> {
    if !max_t_ok(max_t) || !ray.is_valid() || !cylinder.is_valid() {
        return None;
    }
    let o = d3(ray.origin);
    let d = d3(ray.dir);
    let a = d3(cylinder.a);
    let b = d3(cylinder.b);
    let (enter, exit, side) = line_cylinder_d(o, d, a, b, f64::from(cylinder.radius))?;
    if exit < 0.0 {
        return None;
    }
    if enter < 0.0 {
        return finite_hit(RayHit {
            t: 0.0,
            point: ray.origin,
            normal: -unit(ray.dir),
        });
    }
    if enter > f64::from(max_t) {
        return None;
    }
    let point = o + d * enter;
    let u = (b - a).normalize();
    let normal = if side {
        let rel = point - a;
        (rel - u * rel.dot(u)).normalize()
    } else if d.dot(u) > 0.0 {
        -u
    } else {
        u
    };
    finite_hit(RayHit {
        t: enter as f32,
        point: f3(point),
        normal: f3(normal),
    })
}

/// Ray against a triangle, both faces (Möller–Trumbore without culling).
///
/// The normal is the triangle's unit normal flipped to face against `dir`. A ray exactly parallel to the
/// triangle's plane does not hit it (edge-on). Edges and vertices count as hits.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Ray, Triangle}, query::ray::ray_triangle};
/// let t = Triangle::new(Vec3::new(-1.0, -1.0, 5.0), Vec3::new(1.0, -1.0, 5.0), Vec3::new(0.0, 1.0, 5.0));
/// // Its front faces +z; from the origin along +z we hit its back at t = 5, normal toward us (-z).
/// let hit = ray_triangle(&Ray::new(Vec3::ZERO, Vec3::Z), &t, 10.0).unwrap();
/// assert_eq!((hit.t, hit.point, hit.normal), (5.0, Vec3::new(0.0, 0.0, 5.0), -Vec3::Z));
/// ```
#[must_use]
pub fn ray_triangle(ray: &Ray, triangle: &Triangle, max_t: f32) -> Option<RayHit> {
    if !max_t_ok(max_t) || !triangle.is_valid() {
        return None;
    }
    let hit = moller_trumbore(ray, triangle, Cull::None)?;
    if hit.t > max_t {
        return None;
    }
    let n = triangle.normal_unnormalized().normalize();
    let normal = if n.dot(ray.dir) > 0.0 { -n } else { n };
    finite_hit(RayHit {
        t: hit.t,
        point: ray.at(hit.t),
        normal,
    })
}

/// The `t` interval (f64) in which the top-down ray `o + t d` lies within `r` of the segment `a..b` (the
/// wall's outline: a rectangle and two end discs, whose union is convex, so the interval is the union of
/// theirs). `None` when it misses. A ray with `d = 0` is inside for every `t` or for none.
fn stadium_interval(o: DVec2, d: DVec2, a: DVec2, b: DVec2, r: f64) -> Option<(f64, f64)> {
    if d == DVec2::ZERO {
        let ab = b - a;
        let len2 = ab.length_squared();
        let s = if len2 > 0.0 {
            ((o - a).dot(ab) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        return (o.distance_squared(a + ab * s) <= r * r)
            .then_some((f64::NEG_INFINITY, f64::INFINITY));
    }
    let disc = |c: DVec2| -> Option<(f64, f64)> {
        // |o + t d - c|^2 = r^2, with the cancellation-free discriminant a r^2 - (oc x d)^2.
        let oc = o - c;
        let qa = d.length_squared();
        let cross = oc.perp_dot(d);
        let disc = qa * r * r - cross * cross;
        if disc < 0.0 {
            return None;
        }
        let mid = -oc.dot(d) / qa;
        let half = disc.sqrt() / qa;
        Some((mid - half, mid + half))
    };
    let slab1 = |o: f64, d: f64, min: f64, max: f64| -> Option<(f64, f64)> {
        if d == 0.0 {
            (o >= min && o <= max).then_some((f64::NEG_INFINITY, f64::INFINITY))
        } else {
            let (t1, t2) = ((min - o) / d, (max - o) / d);
            Some((t1.min(t2), t1.max(t2)))
        }
    };
    let ab = b - a;
    let len = ab.length();
    // The rectangle (along the segment 0..len, across it -r..r), and which of its slabs bound the interval.
    let mut rect = None;
    let mut ends_bind = true;
    if len > 0.0 {
        let e = ab / len;
        let n = e.perp();
        let rel = o - a;
        if let (Some((u0, u1)), Some((v0, v1))) = (
            slab1(rel.dot(e), d.dot(e), 0.0, len),
            slab1(rel.dot(n), d.dot(n), -r, r),
        ) {
            let (t0, t1) = (u0.max(v0), u1.min(v1));
            if t0 <= t1 {
                rect = Some((t0, t1));
                // Entered and left through the long sides: the end discs lie inside the band |v| <= r, so
                // they cannot be entered earlier or left later.
                ends_bind = u0 > v0 || u1 < v1;
            }
        }
    }
    if !ends_bind {
        return rect;
    }
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for (t0, t1) in [disc(a), disc(b), rect].into_iter().flatten() {
        lo = lo.min(t0);
        hi = hi.max(t1);
    }
    (lo <= hi).then_some((lo, hi))
}

/// A ray against a wall extruded from the floor (`y = 0`) to `height`: the solid of every point whose
/// top-down distance to the wall's segment is at most its collision radius, with `y` in `0..=height` (the
/// same solid as [`crate::query::sweep::sphere_wall`] and `sim::Static::Wall`).
///
/// Conventions as for every ray cast here: a ray starting inside the wall hits at `t = 0` with
/// `normal = -dir.normalize()`; on its surface heading in, at `t = 0` with the surface normal. The normal is the
/// outline's outward normal on the side (horizontal), or `±y` on the top and bottom faces; where a side and a
/// face are entered at the same `t` (an edge), the side's normal is reported. A wall of collision radius 0 is a
/// vertical surface (two-sided, like a triangle): the normal faces against the ray; a ray lying in it hits where
/// it enters it. An invalid wall or ray, or a negative or non-finite `height`, gives `None`.
///
/// ```
/// use collidoscope::{glam::{Vec2, Vec3}, shape::{Ray, Wall}, query::ray::ray_wall};
/// // A wall along x at z = 0 with collision radius 0.5, 2 high; a ray at y = 1 from z = 5 toward it.
/// let wall = Wall::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0), 0.5);
/// let hit = ray_wall(&Ray::new(Vec3::new(0.0, 1.0, 5.0), -Vec3::Z), &wall, 2.0, 10.0).unwrap();
/// // It meets the outline at z = 0.5: t = 4.5, normal +z.
/// assert_eq!((hit.t, hit.point, hit.normal), (4.5, Vec3::new(0.0, 1.0, 0.5), Vec3::Z));
/// // A ray at y = 2.5 passes over it.
/// assert!(ray_wall(&Ray::new(Vec3::new(0.0, 2.5, 5.0), -Vec3::Z), &wall, 2.0, 10.0).is_none());
/// // Falling onto the top from y = 4: the top face at y = 2, t = 2, normal +y.
/// let hit = ray_wall(&Ray::new(Vec3::new(1.0, 4.0, 0.2), -Vec3::Y), &wall, 2.0, 10.0).unwrap();
/// assert_eq!((hit.t, hit.normal), (2.0, Vec3::Y));
/// ```
#[must_use]
pub fn ray_wall(ray: &Ray, wall: &Wall, height: f32, max_t: f32) -> Option<RayHit> {
    wall_entry(ray, wall, height, max_t).and_then(|e| wall_hit(ray, wall, &e))
}

/// Where a ray enters a wall's solid: the first half of [`ray_wall`], without the normal (the scene asks
/// many walls and completes only the nearest).
#[derive(Clone, Copy, Debug)]
pub(crate) struct WallEntry {
    /// Entry parameter in f64 (negative when the origin is inside).
    t0: f64,
    /// Whether the top or bottom face is entered (else the side).
    y_face: bool,
}

impl WallEntry {
    /// The answer's `t`.
    pub(crate) fn t(&self) -> f32 {
        if self.t0 < 0.0 { 0.0 } else { self.t0 as f32 }
    }
}

pub(crate) fn wall_entry(ray: &Ray, wall: &Wall, height: f32, max_t: f32) -> Option<WallEntry> {
    if !max_t_ok(max_t)
        || !ray.is_valid()
        || !wall.is_valid()
        || !height.is_finite()
        || !(height >= 0.0)
    {
        return None;
    }
    let o = d3(ray.origin);
    let d = d3(ray.dir);
    let (a, b) = (wall.a.as_dvec2(), wall.b.as_dvec2());
    let (r, h) = (f64::from(wall.radius), f64::from(height));
    let (o2, d2) = (DVec2::new(o.x, o.z), DVec2::new(d.x, d.z));
    let (ty0, ty1) = if d.y == 0.0 {
        if o.y < 0.0 || o.y > h {
            return None;
        }
        (f64::NEG_INFINITY, f64::INFINITY)
    } else {
        let (t1, t2) = (-o.y / d.y, (h - o.y) / d.y);
        (t1.min(t2), t1.max(t2))
    };
    let (ts0, ts1) = stadium_interval(o2, d2, a, b, r)?;
    let (t0, t1) = (ty0.max(ts0), ty1.min(ts1));
    // `max_t` is compared with the f32 answer (an f64 entry just above it may round to it).
    if t0 > t1 || t1 < 0.0 || t0 as f32 > max_t {
        return None;
    }
    Some(WallEntry {
        t0,
        y_face: ty0 > ts0,
    })
}

/// The hit of a [`wall_entry`]: point and normal.
pub(crate) fn wall_hit(ray: &Ray, wall: &Wall, e: &WallEntry) -> Option<RayHit> {
    if e.t0 < 0.0 {
        // Inside (or on the surface heading out).
        return finite_hit(RayHit {
            t: 0.0,
            point: ray.origin,
            normal: -unit(ray.dir),
        });
    }
    let o = d3(ray.origin);
    let d = d3(ray.dir);
    let t0 = e.t0;
    let normal = if e.y_face {
        DVec3::new(0.0, -d.y.signum(), 0.0)
    } else {
        let (a, b) = (wall.a.as_dvec2(), wall.b.as_dvec2());
        let (o2, d2) = (DVec2::new(o.x, o.z), DVec2::new(d.x, d.z));
        let p = o2 + d2 * t0;
        let ab = b - a;
        let len2 = ab.length_squared();
        let s = if len2 > 0.0 {
            ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let off = p - (a + ab * s);
        let n2 = off
            .try_normalize()
            .or_else(|| {
                // On the segment itself (collision radius 0): the segment's normal, against the ray.
                let e = ab.try_normalize()?.perp();
                Some(if e.dot(d2) > 0.0 { -e } else { e })
            })
            .or_else(|| (-d2).try_normalize())
            .unwrap_or(DVec2::Y);
        DVec3::new(n2.x, 0.0, n2.y)
    };
    finite_hit(RayHit {
        t: t0 as f32,
        point: f3(o + d * t0),
        normal: f3(normal),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slab_parallel_on_boundary_is_inside() {
        let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
        // Runs along the face y = 1, parallel to it: touching counts.
        let hit = ray_aabb(
            &Ray::new(Vec3::new(-1.0, 1.0, 0.5), Vec3::X),
            &b,
            f32::INFINITY,
        )
        .unwrap();
        assert_eq!(hit.t, 1.0);
        // Tiny (subnormal) direction component with origin on the boundary: no 0 * inf NaN. Heading
        // inward it enters at x = 0; heading outward it leaves the slab at once and misses.
        let r = Ray::new(Vec3::new(-1.0, 1.0, 0.5), Vec3::new(1.0, -1e-40, 0.0));
        assert_eq!(ray_aabb(&r, &b, f32::INFINITY).map(|h| h.t), Some(1.0));
        let r = Ray::new(Vec3::new(-1.0, 1.0, 0.5), Vec3::new(1.0, 1e-40, 0.0));
        assert!(ray_aabb(&r, &b, f32::INFINITY).is_none());
    }

    #[test]
    fn inside_box_hits_at_zero_facing_back() {
        let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
        let hit = ray_aabb(
            &Ray::new(Vec3::splat(0.5), Vec3::new(0.0, 2.0, 0.0)),
            &b,
            1.0,
        )
        .unwrap();
        assert_eq!((hit.t, hit.normal), (0.0, -Vec3::Y));
    }

    #[test]
    fn cylinder_parallel_to_axis_inside_radius_hits_cap() {
        let c = Cylinder::new(Vec3::ZERO, Vec3::new(0.0, 0.0, 2.0), 1.0);
        let hit = ray_cylinder(&Ray::new(Vec3::new(0.5, 0.0, -3.0), Vec3::Z), &c, 10.0).unwrap();
        assert_eq!((hit.t, hit.normal), (3.0, -Vec3::Z));
        assert!(ray_cylinder(&Ray::new(Vec3::new(1.5, 0.0, -3.0), Vec3::Z), &c, 10.0).is_none());
    }

    /// The f32 sphere cast as it was before [`clear_miss`], the `Vec3A` form and the wider hand-over to f64:
    /// every answer of [`ray_sphere`] must equal this one bit for bit, except where this one's f32 numbers
    /// ran out of range ([`old_out_of_range`]) and the new one answers as [`ray_sphere_f64`].
    fn ray_sphere_reference(ray: &Ray, sphere: &Sphere, max_t: f32) -> Option<RayHit> {
        let d = ray.dir;
        let oc = ray.origin - sphere.center;
        let r = sphere.radius;
        let a = d.length_squared();
        let half_b = oc.dot(d);
        let c = oc.length_squared() - r * r;
        if !((a + c + half_b).is_finite() && a > 0.0) {
            return ray_sphere_f64(ray, sphere, max_t);
        }
        if c < 0.0 || (c == 0.0 && half_b >= 0.0) {
            return valid_hit(sphere, max_t, 0.0, ray.origin, -unit(d));
        }
        if half_b > 0.0 {
            return None;
        }
        let hb2 = half_b * half_b;
        let mut disc = hb2 - a * c;
        if disc < hb2 * (1.0 / 64.0) {
            disc = a * (r * r) - oc.cross(d).length_squared();
        }
        if !(disc >= 0.0) {
            return None;
        }
        let denom = -half_b + disc.sqrt();
        let t = if denom > 0.0 { c / denom } else { 0.0 };
        if !(t <= max_t) {
            return None;
        }
        let point = ray.origin + d * t;
        valid_hit(sphere, max_t, t, point, (point - sphere.center) * (1.0 / r))
    }

    /// Whether an f32 number of [`ray_sphere_reference`]'s outside-the-sphere path is infinite or NaN for
    /// valid input: its answer there was an accident of overflow (`None` for a hit, or a hit at `t = 0`
    /// with a normal that is not unit), which [`ray_sphere`] now leaves to f64.
    fn old_out_of_range(ray: &Ray, sphere: &Sphere) -> bool {
        let (d, oc, r) = (ray.dir, ray.origin - sphere.center, sphere.radius);
        let (a, half_b, c) = (d.length_squared(), oc.dot(d), oc.length_squared() - r * r);
        let (hb2, lagrange) = (half_b * half_b, a * (r * r) - oc.cross(d).length_squared());
        let disc = if hb2 - a * c < hb2 * (1.0 / 64.0) {
            lagrange
        } else {
            hb2 - a * c
        };
        let t = c / (-half_b + disc.max(0.0).sqrt());
        let point = ray.origin + d * t;
        let numbers = [
            a,
            half_b,
            c,
            hb2,
            a * c,
            hb2 - a * c,
            a * (r * r),
            lagrange,
            1.0 / r,
            t,
        ];
        ray.is_valid()
            && sphere.is_valid()
            && c >= 0.0
            && (numbers.iter().any(|x| !x.is_finite())
                || !(point.is_finite() && ((point - sphere.center) * (1.0 / r)).is_finite()))
    }

    fn hit_bits(h: Option<RayHit>) -> Option<[u32; 7]> {
        h.map(|h| {
            [
                h.t, h.point.x, h.point.y, h.point.z, h.normal.x, h.normal.y, h.normal.z,
            ]
            .map(f32::to_bits)
        })
    }

    /// Checks that [`ray_sphere`] answers as [`ray_sphere_reference`] (or, where that one's f32 numbers
    /// overflowed, exactly as [`ray_sphere_f64`]) and that a hit is finite with `t` in `0..=max_t`. Returns
    /// whether the answer came from the f64 hand-over.
    fn check_same(ray: &Ray, sphere: &Sphere, max_t: f32) -> Result<bool, String> {
        let new = ray_sphere(ray, sphere, max_t);
        let reference = ray_sphere_reference(ray, sphere, max_t);
        let mut handed_over = false;
        if hit_bits(new) != hit_bits(reference) {
            handed_over = old_out_of_range(ray, sphere)
                && hit_bits(new) == hit_bits(ray_sphere_f64(ray, sphere, max_t));
            if !handed_over {
                return Err(format!(
                    "ray_sphere({ray:?}, {sphere:?}, {max_t}) = {new:?}, reference {reference:?}"
                ));
            }
        }
        if let Some(h) = new {
            let finite = h.t.is_finite() && h.point.is_finite() && h.normal.is_finite();
            if !(finite && h.t >= 0.0 && h.t <= max_t) {
                return Err(format!(
                    "ray_sphere({ray:?}, {sphere:?}, {max_t}): bad hit {h:?}"
                ));
            }
        }
        Ok(handed_over)
    }

    /// SplitMix64, for the deterministic sweeps below.
    struct Mix(u64);

    impl Mix {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }

        /// Uniform in `[0, 1)`.
        fn unit(&mut self) -> f32 {
            (self.next() >> 40) as f32 / (1u64 << 24) as f32
        }

        fn range(&mut self, lo: f32, hi: f32) -> f32 {
            lo + (hi - lo) * self.unit()
        }

        /// `2^e` with `e` uniform in `lo..hi`.
        fn scale(&mut self, lo: i32, hi: i32) -> f32 {
            2f32.powi(lo + (self.next() % (hi - lo) as u64) as i32)
        }

        fn dir(&mut self) -> Vec3 {
            loop {
                let v = Vec3::new(
                    self.range(-1.0, 1.0),
                    self.range(-1.0, 1.0),
                    self.range(-1.0, 1.0),
                );
                if v.length_squared() > 1e-3 {
                    return v.normalize();
                }
            }
        }

        /// Any f32 bit pattern, with infinities, NaNs, zeros and subnormals now and then.
        fn any(&mut self) -> f32 {
            match self.next() % 8 {
                0 => f32::from_bits(self.next() as u32),
                1 => [
                    0.0,
                    -0.0,
                    f32::INFINITY,
                    f32::NEG_INFINITY,
                    f32::NAN,
                    1e-40,
                    -1e-45,
                    f32::MAX,
                ][(self.next() % 8) as usize],
                _ => self.range(-1.0, 1.0) * self.scale(-60, 60),
            }
        }
    }

    /// One case of the sweep: a sphere at any scale and distance, and a ray aimed at it, near its rim
    /// (grazing, just inside or just outside the tangent), from inside, from its surface, or anywhere.
    fn sweep_case(m: &mut Mix) -> (Ray, Sphere, f32) {
        let kind = m.next() % 8;
        if kind == 0 {
            let v = |m: &mut Mix| Vec3::new(m.any(), m.any(), m.any());
            let (origin, dir, center) = (v(m), v(m), v(m));
            return (Ray::new(origin, dir), Sphere::new(center, m.any()), m.any());
        }
        let unit = m.scale(-40, 40);
        let radius = m.range(0.5, 2.0) * unit * m.scale(-20, 4);
        let center = Vec3::new(m.range(-1.0, 1.0), m.range(-1.0, 1.0), m.range(-1.0, 1.0))
            * unit
            * m.scale(0, 24);
        let sphere = Sphere::new(center, radius);
        let dist = radius * m.range(0.0, 1.0) * m.scale(0, 30);
        let origin = center + m.dir() * dist;
        // Aim at a point on the plane through the centre across the ray, at `offset` radii from the centre.
        let towards = (center - origin).try_normalize().unwrap_or(Vec3::X);
        let side = towards.any_orthonormal_vector();
        let offset = match kind {
            1 => 1.0 + m.range(-1.0, 1.0) * m.scale(-24, -4),
            2 => 1.0,
            3 => m.range(0.0, 1.0),
            4 => m.range(0.0, 3.0),
            _ => m.range(0.0, 1.5),
        };
        let aim = center + side * (radius * offset);
        let mut dir = (aim - origin) * m.scale(-30, 30);
        if kind == 5 {
            dir = m.dir() * m.scale(-30, 30);
        }
        let origin = if kind == 6 {
            center + m.dir() * radius
        } else {
            origin
        };
        let max_t = match m.next() % 4 {
            0 => f32::INFINITY,
            1 => m.range(0.0, 2.0),
            _ => m.range(0.0, 2.0) * m.scale(0, 40),
        };
        (Ray::new(origin, dir), sphere, max_t)
    }

    #[test]
    fn ray_sphere_equals_reference_on_a_million_cases() {
        let mut m = Mix(0x5EED_0F5F_4E2E);
        let mut hits = 0;
        let mut handed_over = 0;
        for _ in 0..1_000_000 {
            let (ray, sphere, max_t) = sweep_case(&mut m);
            match check_same(&ray, &sphere, max_t) {
                Ok(f64_answer) => handed_over += usize::from(f64_answer),
                Err(e) => panic!("{e}"),
            }
            hits += usize::from(ray_sphere(&ray, &sphere, max_t).is_some());
        }
        // The sweep exercises both answers in earnest, and the overflow cases stay rare.
        assert!((200_000..800_000).contains(&hits), "{hits} hits");
        assert!(
            handed_over < 100_000,
            "{handed_over} answers differ from the old f32 form"
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 20_000,
            failure_persistence: None,
            ..proptest::prelude::ProptestConfig::default()
        })]

        #[test]
        fn ray_sphere_equals_reference(seed in proptest::prelude::any::<u64>()) {
            let (ray, sphere, max_t) = sweep_case(&mut Mix(seed));
            check_same(&ray, &sphere, max_t).map_err(proptest::test_runner::TestCaseError::fail)?;
        }

        #[test]
        fn ray_sphere_equals_reference_on_raw_floats(
            o in proptest::array::uniform3(proptest::num::f32::ANY),
            d in proptest::array::uniform3(proptest::num::f32::ANY),
            c in proptest::array::uniform3(proptest::num::f32::ANY),
            r in proptest::num::f32::ANY,
            max_t in proptest::num::f32::ANY,
        ) {
            let (ray, sphere) = (Ray::new(Vec3::from(o), Vec3::from(d)), Sphere::new(Vec3::from(c), r));
            check_same(&ray, &sphere, max_t).map_err(proptest::test_runner::TestCaseError::fail)?;
        }
    }

    /// The rounding errors of the two f32 discriminants against the exact one, measured: [`clear_miss`]
    /// relies on their sum staying below A·O·2⁻¹⁸ (its bound is 55u·A·O, u = 2⁻²⁴).
    #[test]
    fn discriminant_errors_within_bound() {
        let mut m = Mix(0xD15C);
        let mut worst: f64 = 0.0;
        for _ in 0..2_000_000 {
            let (ray, sphere, _) = sweep_case(&mut m);
            let (oc, d, r) = (ray.origin - sphere.center, ray.dir, sphere.radius);
            let (a, half_b, oc2) = (d.length_squared(), oc.dot(d), oc.length_squared());
            let c = oc2 - r * r;
            if !((a + c + half_b + oc2).is_finite() && a.min(oc2) > 2f32.powi(-50) && c >= 0.0) {
                continue;
            }
            let hb2 = half_b * half_b;
            let (textbook, lagrange) = (hb2 - a * c, a * (r * r) - oc.cross(d).length_squared());
            if !(hb2.is_finite() && textbook.is_finite() && lagrange.is_finite()) {
                continue;
            }
            // Products of f32 values are exact in f64; the sums round at 2⁻⁵³, far below what is measured.
            let (oc, d, r) = (oc.as_dvec3(), d.as_dvec3(), f64::from(r));
            let exact = d.length_squared() * r * r - oc.cross(d).length_squared();
            let ao = d.length_squared() * oc.length_squared();
            let err =
                ((f64::from(textbook) - exact).abs() + (f64::from(lagrange) - exact).abs()) / ao;
            worst = worst.max(err);
        }
        let bound = 55.0 * 2f64.powi(-24);
        assert!(
            worst > 0.0 && worst < bound,
            "worst {worst:e} against {bound:e}"
        );
    }

    /// Against the f64 version (the referee for far, tiny, huge and grazing spheres): the same hits and
    /// misses wherever the true discriminant is not within rounding of zero, and close `t`.
    #[test]
    fn ray_sphere_agrees_with_f64() {
        let mut m = Mix(0xF64);
        let mut compared = 0;
        for _ in 0..2_000_000 {
            let (ray, sphere, max_t) = sweep_case(&mut m);
            // f32 keeps its relative precision while no square underflows: |dir|² and r² of at least 2⁻⁴⁰
            // keep every product of the discriminants (a·r², a·|oc|², ...) at 2⁻⁸⁰ or more. Below that the
            // f32 path is as it always was (products lose digits to gradual underflow).
            let tiny = 2f32.powi(-40);
            let normal_range =
                ray.dir.length_squared() >= tiny && sphere.radius * sphere.radius >= tiny;
            if !(ray.is_valid() && sphere.is_valid() && max_t >= 0.0 && normal_range) {
                continue;
            }
            let (oc, d) = ((ray.origin - sphere.center).as_dvec3(), ray.dir.as_dvec3());
            let r = f64::from(sphere.radius);
            let (a, o2, r2) = (d.length_squared(), oc.length_squared(), r * r);
            let exact = a * r2 - oc.cross(d).length_squared();
            // f32 rounds `origin - center` by up to `delta` (f64 does not): the answers may differ where that
            // moves the line across the rim or the origin across the surface, and the distance to the
            // entry by up to `delta` over the cosine of incidence (at least sqrt(1e-5) past the rim cut).
            let delta = 2f64.powi(-24)
                * 3f64.sqrt()
                * f64::from(ray.origin.abs().max_element() + sphere.center.abs().max_element());
            let tangent =
                exact.abs() < a * (o2 + r2) * 1e-5 + 8.0 * (o2 * a).sqrt() * a.sqrt() * delta;
            if tangent || (o2 - r2).abs() < (o2 + r2) * 1e-5 + 8.0 * o2.sqrt() * delta {
                continue; // Tangent or on the surface: either answer is within rounding.
            }
            let (new, referee) = (
                ray_sphere(&ray, &sphere, max_t),
                ray_sphere_f64(&ray, &sphere, max_t),
            );
            match (new, referee) {
                (Some(h), Some(g)) => {
                    compared += 1;
                    let gap = f64::from((h.t - g.t).abs()) * a.sqrt();
                    let allowed = 1e-4 * f64::from(g.t) * a.sqrt() + 400.0 * delta;
                    let ok = gap <= allowed && (h.t == 0.0) == (g.t == 0.0);
                    assert!(ok, "{ray:?} {sphere:?} {max_t}: {h:?} vs f64 {g:?}");
                }
                (None, None) => {}
                // The end of the range: t within rounding of max_t.
                (Some(h), None) | (None, Some(h))
                    if (h.t - max_t).abs() <= 1e-3 * max_t.min(f32::MAX) => {}
                (a, b) => panic!("{ray:?} {sphere:?} {max_t}: {a:?} vs f64 {b:?}"),
            }
        }
        assert!(compared > 50_000, "{compared} hits compared");
    }

    #[test]
    fn max_t_is_inclusive_and_nan_rejected() {
        let s = Sphere::new(Vec3::new(0.0, 0.0, 10.0), 2.0);
        let r = Ray::new(Vec3::ZERO, Vec3::Z);
        assert!(ray_sphere(&r, &s, 8.0).is_some());
        assert!(ray_sphere(&r, &s, 7.999).is_none());
        assert!(ray_sphere(&r, &s, f32::NAN).is_none());
    }
}
