//! Rays against spheres: f32 with a cancellation-free discriminant, f64 where a square overflows.

use glam::{Vec3, Vec3A};

use super::super::{RayHit, d3, f3, finite_hit, unit};
use super::max_t_ok;
use crate::shape::{Ray, Sphere};

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
pub(super) fn clear_miss(disc: f32, a: f32, oc2: f32) -> bool {
    const TINY: f32 = 1.0 / (1u64 << 50) as f32;
    disc * -32768.0 > a * oc2 && a > TINY && oc2 > TINY
}

/// The hit, once the inputs are known valid and the numbers finite.
#[inline]
pub(super) fn valid_hit(
    sphere: &Sphere,
    max_t: f32,
    t: f32,
    point: Vec3,
    normal: Vec3,
) -> Option<RayHit> {
    // Reaching here, |dir|² + |origin - centre|² - r² + origin · dir was finite, so every input is finite
    // and dir is non-zero: only the radius's sign and max_t remain to check.
    if !(max_t_ok(max_t) && sphere.radius > 0.0) {
        return None;
    }
    finite_hit(RayHit { t, point, normal })
}

/// [`ray_sphere`] in f64, for numbers beyond f32's range (coordinates whose squares overflow, a hit point
/// past `f32::MAX`, the reciprocal of a subnormal radius).
pub(super) fn ray_sphere_f64(ray: &Ray, sphere: &Sphere, max_t: f32) -> Option<RayHit> {
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
