//! Boolean overlap tests (Game Physics Cookbook, chapter 10): `fn(&A, &B) -> bool`, arguments in name order.
//!
//! Spheres and boxes are solids; "plane" means the plane's surface (not a half-space); triangles are
//! surfaces. Touching counts. Distance-based tests (spheres) compare exactly (in f64); separating-axis tests
//! (boxes, triangles, planes against boxes and triangles) need a gap beyond [`SAT_EPSILON`] of the pair's
//! scale to call the shapes apart, so a pair built to touch never misses through rounding. Any invalid shape
//! gives `false`.

use glam::{DVec2, DVec3, Mat3};

use super::closest::{point_aabb_d, point_obb_d, point_triangle_d};
use super::sat::box_box_sat;
use super::{SAT_EPSILON, d3};
use crate::shape::{Aabb, Cylinder, Obb, Plane, Sphere, Triangle, Wall};

mod capsule;

pub use capsule::{
    capsule_aabb, capsule_capsule, capsule_cylinder, capsule_obb, capsule_plane, capsule_sphere,
    capsule_triangle, capsule_wall,
};

/// Exact (f64) squared-distance comparison.
#[inline]
fn within(p: DVec3, q: DVec3, r: f32) -> bool {
    let r = f64::from(r);
    p.distance_squared(q) <= r * r
}

/// Two solid spheres touch or overlap: `|c1 - c2| <= r1 + r2`.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::Sphere, query::overlap::sphere_sphere};
/// let a = Sphere::new(Vec3::ZERO, 1.0);
/// assert!(sphere_sphere(&a, &Sphere::new(Vec3::new(3.0, 0.0, 0.0), 2.0))); // 3 <= 1 + 2: touching
/// assert!(!sphere_sphere(&a, &Sphere::new(Vec3::new(3.1, 0.0, 0.0), 2.0)));
/// ```
#[must_use]
pub fn sphere_sphere(a: &Sphere, b: &Sphere) -> bool {
    if !a.is_valid() || !b.is_valid() {
        return false;
    }
    let r = f64::from(a.radius) + f64::from(b.radius);
    d3(a.center).distance_squared(d3(b.center)) <= r * r
}

/// A solid sphere and a solid capped cylinder: the cylinder's closest point to the centre is within the
/// radius (exact, in f64).
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Cylinder, Sphere}, query::overlap::sphere_cylinder};
/// let c = Cylinder::new(Vec3::ZERO, Vec3::new(0.0, 2.0, 0.0), 1.0);
/// // Beside it: the side is 1 from the axis, the centre 2.5 from it: touching at radius 1.5.
/// assert!(sphere_cylinder(&Sphere::new(Vec3::new(2.5, 1.0, 0.0), 1.5), &c));
/// assert!(!sphere_cylinder(&Sphere::new(Vec3::new(2.5, 1.0, 0.0), 1.4), &c));
/// // Past the rim: from (2, 3, 0) the rim point (1, 2, 0) is sqrt(2) away.
/// assert!(!sphere_cylinder(&Sphere::new(Vec3::new(2.0, 3.0, 0.0), 1.41), &c));
/// assert!(sphere_cylinder(&Sphere::new(Vec3::new(2.0, 3.0, 0.0), 1.42), &c));
/// ```
#[must_use]
pub fn sphere_cylinder(sphere: &Sphere, cylinder: &Cylinder) -> bool {
    if !sphere.is_valid() || !cylinder.is_valid() {
        return false;
    }
    let p = d3(sphere.center);
    let (a, b) = (d3(cylinder.a), d3(cylinder.b));
    let axis = b - a;
    let len = axis.length();
    let u = axis / len;
    let rel = p - a;
    let along = rel.dot(u);
    let radial = rel - u * along;
    let dist = radial.length();
    let cr = f64::from(cylinder.radius);
    let radial_part = if dist > cr {
        radial * (cr / dist)
    } else {
        radial
    };
    let q = a + u * along.clamp(0.0, len) + radial_part;
    within(p, q, sphere.radius)
}

/// A solid sphere and a wall extruded from the floor (`y = 0`) to `height` (the solid of
/// [`crate::query::sweep::sphere_wall`]): the wall's closest point to the centre is within the radius (exact,
/// in f64). An invalid sphere or wall, or a negative or non-finite `height`, gives `false`.
///
/// ```
/// use collidoscope::{glam::{Vec2, Vec3}, shape::{Sphere, Wall}, query::overlap::sphere_wall};
/// let wall = Wall::new(Vec2::new(-5.0, 0.0), Vec2::new(5.0, 0.0), 0.5);
/// // 1.5 from the segment, 1 from the outline: touching at radius 1.
/// assert!(sphere_wall(&Sphere::new(Vec3::new(0.0, 1.0, 1.5), 1.0), &wall, 2.0));
/// assert!(!sphere_wall(&Sphere::new(Vec3::new(0.0, 1.0, 1.6), 1.0), &wall, 2.0));
/// // Above the top (y = 2) by 0.5.
/// assert!(sphere_wall(&Sphere::new(Vec3::new(0.0, 2.5, 0.0), 0.5), &wall, 2.0));
/// assert!(!sphere_wall(&Sphere::new(Vec3::new(0.0, 2.6, 0.0), 0.5), &wall, 2.0));
/// ```
#[must_use]
pub fn sphere_wall(sphere: &Sphere, wall: &Wall, height: f32) -> bool {
    if !sphere.is_valid() || !wall.is_valid() || !height.is_finite() || !(height >= 0.0) {
        return false;
    }
    let p = d3(sphere.center);
    let flat = DVec2::new(p.x, p.z);
    let (a, b) = (wall.a.as_dvec2(), wall.b.as_dvec2());
    let ab = b - a;
    let len2 = ab.length_squared();
    let s = if len2 > 0.0 {
        ((flat - a).dot(ab) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let q = a + ab * s;
    let off = flat - q;
    let d = off.length();
    let wr = f64::from(wall.radius);
    let xz = if d <= wr { flat } else { q + off * (wr / d) };
    let closest = DVec3::new(xz.x, p.y.clamp(0.0, f64::from(height)), xz.y);
    within(p, closest, sphere.radius)
}

/// A solid sphere and a solid box: the box's closest point to the centre is within the radius.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Aabb, Sphere}, query::overlap::sphere_aabb};
/// let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
/// // Centre (2, 2, 0.5): nearest box point (1, 1, 0.5) is sqrt(2) ≈ 1.414 away.
/// assert!(sphere_aabb(&Sphere::new(Vec3::new(2.0, 2.0, 0.5), 1.5), &b));
/// assert!(!sphere_aabb(&Sphere::new(Vec3::new(2.0, 2.0, 0.5), 1.4), &b));
/// ```
#[must_use]
pub fn sphere_aabb(sphere: &Sphere, aabb: &Aabb) -> bool {
    if !sphere.is_valid() || !aabb.is_valid() {
        return false;
    }
    let c = d3(sphere.center);
    within(
        c,
        point_aabb_d(c, d3(aabb.min), d3(aabb.max)),
        sphere.radius,
    )
}

/// A solid sphere and a solid oriented box: the box's closest point to the centre is within the radius.
///
/// ```
/// use collidoscope::{glam::{Mat3, Vec3}, shape::{Obb, Sphere}, query::overlap::sphere_obb};
/// // A unit box turned 45° about z: its corner reaches x = sqrt(2) ≈ 1.414.
/// let b = Obb::new(Vec3::ZERO, Vec3::ONE, Mat3::from_rotation_z(std::f32::consts::FRAC_PI_4));
/// assert!(sphere_obb(&Sphere::new(Vec3::new(2.0, 0.0, 0.0), 0.6), &b));
/// assert!(!sphere_obb(&Sphere::new(Vec3::new(2.0, 0.0, 0.0), 0.5), &b));
/// ```
#[must_use]
pub fn sphere_obb(sphere: &Sphere, obb: &Obb) -> bool {
    if !sphere.is_valid() || !obb.is_valid() {
        return false;
    }
    let c = d3(sphere.center);
    within(c, point_obb_d(c, obb), sphere.radius)
}

/// A solid sphere and a plane's surface: `|signed distance of the centre| <= radius`.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Plane, Sphere}, query::overlap::sphere_plane};
/// let floor = Plane::new(Vec3::Y, 0.0);
/// assert!(sphere_plane(&Sphere::new(Vec3::new(0.0, 1.0, 0.0), 1.0), &floor)); // resting on it
/// assert!(!sphere_plane(&Sphere::new(Vec3::new(0.0, -3.0, 0.0), 1.0), &floor)); // below, apart
/// ```
#[must_use]
pub fn sphere_plane(sphere: &Sphere, plane: &Plane) -> bool {
    if !sphere.is_valid() || !plane.is_valid() {
        return false;
    }
    let n = d3(plane.normal);
    let dist = n.dot(d3(sphere.center)) - f64::from(plane.d);
    dist.abs() <= f64::from(sphere.radius) * n.length()
}

/// A solid sphere and a triangle: the triangle's closest point to the centre is within the radius.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Sphere, Triangle}, query::overlap::sphere_triangle};
/// let t = Triangle::new(Vec3::ZERO, Vec3::X, Vec3::Y);
/// assert!(sphere_triangle(&Sphere::new(Vec3::new(0.2, 0.2, 0.5), 0.5), &t));
/// assert!(!sphere_triangle(&Sphere::new(Vec3::new(0.2, 0.2, 0.5), 0.49), &t));
/// ```
#[must_use]
pub fn sphere_triangle(sphere: &Sphere, triangle: &Triangle) -> bool {
    if !sphere.is_valid() || !triangle.is_valid() {
        return false;
    }
    let c = d3(sphere.center);
    within(
        c,
        point_triangle_d(c, d3(triangle.a), d3(triangle.b), d3(triangle.c)),
        sphere.radius,
    )
}

/// Two axis-aligned boxes: their intervals overlap on every axis (touching counts).
///
/// ```
/// use collidoscope::{glam::Vec3, shape::Aabb, query::overlap::aabb_aabb};
/// let a = Aabb::new(Vec3::ZERO, Vec3::ONE);
/// assert!(aabb_aabb(&a, &Aabb::new(Vec3::new(1.0, 0.0, 0.0), Vec3::new(2.0, 1.0, 1.0)))); // shared face
/// assert!(!aabb_aabb(&a, &Aabb::new(Vec3::new(1.5, 0.0, 0.0), Vec3::new(2.0, 1.0, 1.0))));
/// ```
#[must_use]
pub fn aabb_aabb(a: &Aabb, b: &Aabb) -> bool {
    a.is_valid() && b.is_valid() && a.min.cmple(b.max).all() && b.min.cmple(a.max).all()
}

/// An axis-aligned box and an oriented box: 15-axis separating-axis test (see [`super::sat`]).
///
/// ```
/// use collidoscope::{glam::{Mat3, Vec3}, shape::{Aabb, Obb}, query::overlap::aabb_obb};
/// let a = Aabb::new(Vec3::splat(-1.0), Vec3::splat(1.0));
/// // Turned 45° about z, the box's corner reaches sqrt(2) ≈ 1.414 from its centre.
/// let rot = Mat3::from_rotation_z(std::f32::consts::FRAC_PI_4);
/// assert!(aabb_obb(&a, &Obb::new(Vec3::new(2.4, 0.0, 0.0), Vec3::ONE, rot)));
/// assert!(!aabb_obb(&a, &Obb::new(Vec3::new(2.5, 0.0, 0.0), Vec3::ONE, rot)));
/// ```
#[must_use]
pub fn aabb_obb(aabb: &Aabb, obb: &Obb) -> bool {
    if !aabb.is_valid() || !obb.is_valid() {
        return false;
    }
    !box_box_sat(
        aabb.center(),
        &Mat3::IDENTITY,
        aabb.half_extents(),
        obb.center,
        &obb.rotation,
        obb.half_extents,
        |n| !n.separates(),
    )
}

/// Two oriented boxes: 15-axis separating-axis test (see [`super::sat`]), with each box's own interval on
/// every axis (the Cookbook projects `obb1` twice) and parallel-edge cross axes skipped.
///
/// ```
/// use collidoscope::{glam::{Mat3, Vec3}, shape::Obb, query::overlap::obb_obb};
/// let a = Obb::new(Vec3::ZERO, Vec3::ONE, Mat3::IDENTITY);
/// let rot = Mat3::from_rotation_z(std::f32::consts::FRAC_PI_4);
/// // Corner of the turned box at 2.4 - 1.414 = 0.986 < 1: overlapping; at 2.5 it is 1.086 > 1.
/// assert!(obb_obb(&a, &Obb::new(Vec3::new(2.4, 0.0, 0.0), Vec3::ONE, rot)));
/// assert!(!obb_obb(&a, &Obb::new(Vec3::new(2.5, 0.0, 0.0), Vec3::ONE, rot)));
/// ```
#[must_use]
#[inline]
pub fn obb_obb(a: &Obb, b: &Obb) -> bool {
    if !a.is_valid() || !b.is_valid() {
        return false;
    }
    !box_box_sat(
        a.center,
        &a.rotation,
        a.half_extents,
        b.center,
        &b.rotation,
        b.half_extents,
        |n| !n.separates(),
    )
}

/// A box (centre, unit axes, half extents) against a plane: `|signed distance of the centre|` within the
/// box's projected radius, plus the SAT tolerance.
fn box_plane(center: DVec3, axes: [DVec3; 3], half: DVec3, plane: &Plane) -> bool {
    let n = d3(plane.normal);
    let len = n.length();
    let n = n / len;
    let d = f64::from(plane.d) / len;
    let r = half.x * axes[0].dot(n).abs()
        + half.y * axes[1].dot(n).abs()
        + half.z * axes[2].dot(n).abs();
    let s = n.dot(center) - d;
    s.abs() - r <= f64::from(SAT_EPSILON) * (s.abs() + r + d.abs())
}

/// A solid axis-aligned box and a plane's surface: the plane passes through (or touches) the box.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Aabb, Plane}, query::overlap::aabb_plane};
/// let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
/// // x + y + z = 3 touches the corner (1, 1, 1); = 3.1 misses it.
/// let n = Vec3::ONE.normalize();
/// assert!(aabb_plane(&b, &Plane::new(n, 3.0 / 3f32.sqrt())));
/// assert!(!aabb_plane(&b, &Plane::new(n, 3.1 / 3f32.sqrt())));
/// ```
#[must_use]
pub fn aabb_plane(aabb: &Aabb, plane: &Plane) -> bool {
    aabb.is_valid()
        && plane.is_valid()
        && box_plane(
            d3(aabb.center()),
            [DVec3::X, DVec3::Y, DVec3::Z],
            d3(aabb.half_extents()),
            plane,
        )
}

/// A solid oriented box and a plane's surface.
///
/// ```
/// use collidoscope::{glam::{Mat3, Vec3}, shape::{Obb, Plane}, query::overlap::obb_plane};
/// // A unit box turned 45° about z reaches y = sqrt(2) ≈ 1.414.
/// let b = Obb::new(Vec3::ZERO, Vec3::ONE, Mat3::from_rotation_z(std::f32::consts::FRAC_PI_4));
/// assert!(obb_plane(&b, &Plane::new(Vec3::Y, 1.4)));
/// assert!(!obb_plane(&b, &Plane::new(Vec3::Y, 1.42)));
/// ```
#[must_use]
pub fn obb_plane(obb: &Obb, plane: &Plane) -> bool {
    obb.is_valid()
        && plane.is_valid()
        && box_plane(
            d3(obb.center),
            [
                d3(obb.rotation.x_axis),
                d3(obb.rotation.y_axis),
                d3(obb.rotation.z_axis),
            ],
            d3(obb.half_extents),
            plane,
        )
}

/// A triangle's vertices in f64.
fn tri_d(t: &Triangle) -> [DVec3; 3] {
    [d3(t.a), d3(t.b), d3(t.c)]
}

/// Projection interval of points on an axis.
#[inline]
fn project_points(points: &[DVec3], axis: DVec3) -> (f64, f64) {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for p in points {
        let x = p.dot(axis);
        lo = lo.min(x);
        hi = hi.max(x);
    }
    (lo, hi)
}

/// Whether intervals `a` and `b` are apart by more than the SAT tolerance.
#[inline]
fn apart(a: (f64, f64), b: (f64, f64)) -> bool {
    let gap = (b.0 - a.1).max(a.0 - b.1);
    let scale = (a.1 - a.0) + (b.1 - b.0) + ((a.0 + a.1) - (b.0 + b.1)).abs() * 0.5;
    gap > f64::from(SAT_EPSILON) * scale
}

/// Squared length at or below which an f64 cross-product axis is skipped (zero, or too small to normalise).
/// Any other axis is safe to test: its projections are computed on the axis actually used, so a poorly
/// conditioned direction can never claim a false separation.
const DEGENERATE_AXIS: f64 = f64::MIN_POSITIVE;

/// SAT between a box (centre, unit axes, half extents) and a triangle: the box's 3 face normals, the
/// triangle's normal, and the 9 box-axis × edge cross products.
fn box_triangle(center: DVec3, axes: [DVec3; 3], half: DVec3, tri: &Triangle) -> bool {
    let v = tri_d(tri);
    let edges = [v[1] - v[0], v[2] - v[1], v[0] - v[2]];
    let box_interval = |axis: DVec3| {
        let c = center.dot(axis);
        let r = half.x * axes[0].dot(axis).abs()
            + half.y * axes[1].dot(axis).abs()
            + half.z * axes[2].dot(axis).abs();
        (c - r, c + r)
    };
    let separates = |axis: DVec3| {
        let len2 = axis.length_squared();
        if !(len2 > DEGENERATE_AXIS) {
            return false;
        }
        let axis = axis / len2.sqrt();
        apart(box_interval(axis), project_points(&v, axis))
    };
    if axes.iter().any(|&a| separates(a)) {
        return false;
    }
    if separates(edges[0].cross(edges[1])) {
        return false;
    }
    for a in axes {
        for e in edges {
            if separates(a.cross(e)) {
                return false;
            }
        }
    }
    true
}

/// A solid axis-aligned box and a triangle: 13-axis separating-axis test (Akenine-Möller's axes).
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Aabb, Triangle}, query::overlap::aabb_triangle};
/// let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
/// // A triangle lying on the box's top face touches it.
/// let top = Triangle::new(Vec3::new(0.0, 1.0, 0.0), Vec3::new(1.0, 1.0, 0.0), Vec3::new(0.0, 1.0, 1.0));
/// assert!(aabb_triangle(&b, &top));
/// // The triangle x + y + z = 3.5 passes beyond the corner (1, 1, 1), which has x + y + z = 3.
/// let far = Triangle::new(Vec3::new(3.5, 0.0, 0.0), Vec3::new(0.0, 3.5, 0.0), Vec3::new(0.0, 0.0, 3.5));
/// assert!(!aabb_triangle(&b, &far));
/// ```
#[must_use]
pub fn aabb_triangle(aabb: &Aabb, triangle: &Triangle) -> bool {
    aabb.is_valid()
        && triangle.is_valid()
        && box_triangle(
            d3(aabb.center()),
            [DVec3::X, DVec3::Y, DVec3::Z],
            d3(aabb.half_extents()),
            triangle,
        )
}

/// A solid oriented box and a triangle: the 13-axis test in the box's axes.
///
/// ```
/// use collidoscope::{glam::{Mat3, Vec3}, shape::{Obb, Triangle}, query::overlap::obb_triangle};
/// // A unit box turned 45° about z reaches x = sqrt(2) ≈ 1.414.
/// let b = Obb::new(Vec3::ZERO, Vec3::ONE, Mat3::from_rotation_z(std::f32::consts::FRAC_PI_4));
/// let wall = |x: f32| Triangle::new(Vec3::new(x, -5.0, -5.0), Vec3::new(x, 5.0, -5.0), Vec3::new(x, 0.0, 5.0));
/// assert!(obb_triangle(&b, &wall(1.4)));
/// assert!(!obb_triangle(&b, &wall(1.42)));
/// ```
#[must_use]
pub fn obb_triangle(obb: &Obb, triangle: &Triangle) -> bool {
    obb.is_valid()
        && triangle.is_valid()
        && box_triangle(
            d3(obb.center),
            [
                d3(obb.rotation.x_axis),
                d3(obb.rotation.y_axis),
                d3(obb.rotation.z_axis),
            ],
            d3(obb.half_extents),
            triangle,
        )
}

/// Two planes' surfaces meet unless they are parallel and distinct.
///
/// Parallel means the normals' cross product is below 1e-12 of their lengths (squared); coincident means the
/// normalised offsets agree within the SAT tolerance.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::Plane, query::overlap::plane_plane};
/// assert!(plane_plane(&Plane::new(Vec3::Y, 0.0), &Plane::new(Vec3::X, 5.0))); // they cross
/// assert!(!plane_plane(&Plane::new(Vec3::Y, 0.0), &Plane::new(Vec3::Y, 1.0))); // parallel, apart
/// assert!(plane_plane(&Plane::new(Vec3::Y, 1.0), &Plane::new(-Vec3::Y, -1.0))); // the same plane
/// ```
#[must_use]
pub fn plane_plane(a: &Plane, b: &Plane) -> bool {
    if !a.is_valid() || !b.is_valid() {
        return false;
    }
    let (na, nb) = (d3(a.normal), d3(b.normal));
    let (la, lb) = (na.length(), nb.length());
    let cross = na.cross(nb).length_squared();
    if cross > 1e-12 * la * la * lb * lb {
        return true;
    }
    // Parallel: the same plane when the offsets along a common unit normal agree.
    let da = f64::from(a.d) / la;
    let db = f64::from(b.d) / lb * if na.dot(nb) < 0.0 { -1.0 } else { 1.0 };
    (da - db).abs() <= f64::from(SAT_EPSILON) * (da.abs() + db.abs()).max(f64::MIN_POSITIVE)
}

/// A triangle and a plane's surface: the triangle has vertices on both sides or on the plane.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::{Plane, Triangle}, query::overlap::triangle_plane};
/// let t = Triangle::new(Vec3::new(0.0, -1.0, 0.0), Vec3::new(1.0, 1.0, 0.0), Vec3::new(0.0, 1.0, 1.0));
/// assert!(triangle_plane(&t, &Plane::new(Vec3::Y, 0.5))); // vertices at y = -1 and y = 1
/// assert!(triangle_plane(&t, &Plane::new(Vec3::Y, 1.0))); // touches at the top
/// assert!(!triangle_plane(&t, &Plane::new(Vec3::Y, 1.5)));
/// ```
#[must_use]
pub fn triangle_plane(triangle: &Triangle, plane: &Plane) -> bool {
    if !triangle.is_valid() || !plane.is_valid() {
        return false;
    }
    let n = d3(plane.normal);
    let len = n.length();
    let (lo, hi) = project_points(&tri_d(triangle), n / len);
    let d = f64::from(plane.d) / len;
    !apart((lo, hi), (d, d))
}

/// Two triangles: separating-axis test on both normals, the 9 edge cross products and the 6 in-plane edge
/// normals (which make coplanar triangles exact without a special case). Touching counts.
///
/// ```
/// use collidoscope::{glam::Vec3, shape::Triangle, query::overlap::triangle_triangle};
/// let flat = Triangle::new(Vec3::new(-1.0, 0.0, -1.0), Vec3::new(1.0, 0.0, -1.0), Vec3::new(0.0, 0.0, 1.0));
/// // A vertical triangle piercing it, and the same one lifted above it.
/// let pierce = Triangle::new(Vec3::new(0.0, -1.0, 0.0), Vec3::new(0.0, 1.0, 0.5), Vec3::new(0.0, 1.0, -0.5));
/// assert!(triangle_triangle(&flat, &pierce));
/// let lifted = Triangle::new(Vec3::new(0.0, 0.5, 0.0), Vec3::new(0.0, 1.0, 0.5), Vec3::new(0.0, 1.0, -0.5));
/// assert!(!triangle_triangle(&flat, &lifted));
/// ```
#[must_use]
pub fn triangle_triangle(a: &Triangle, b: &Triangle) -> bool {
    if !a.is_valid() || !b.is_valid() {
        return false;
    }
    let va = tri_d(a);
    let vb = tri_d(b);
    let ea = [va[1] - va[0], va[2] - va[1], va[0] - va[2]];
    let eb = [vb[1] - vb[0], vb[2] - vb[1], vb[0] - vb[2]];
    let na = ea[0].cross(ea[1]);
    let nb = eb[0].cross(eb[1]);
    let separates = |axis: DVec3| {
        let len2 = axis.length_squared();
        if !(len2 > DEGENERATE_AXIS) {
            return false;
        }
        let axis = axis / len2.sqrt();
        apart(project_points(&va, axis), project_points(&vb, axis))
    };
    if separates(na) || separates(nb) {
        return false;
    }
    for e in ea {
        for f in eb {
            if separates(e.cross(f)) {
                return false;
            }
        }
    }
    for e in ea {
        if separates(na.cross(e)) {
            return false;
        }
    }
    for f in eb {
        if separates(nb.cross(f)) {
            return false;
        }
    }
    true
}
