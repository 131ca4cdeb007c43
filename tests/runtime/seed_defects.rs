//! One regression test per known defect of the five source texts (`/work/shared/seeds/README.md`).
//!
//! Each test re-implements the seed's own code (as printed in the seed text, translated line for line into
//! Rust with the seed's number types), builds an input on which that code answers wrongly, asserts that the
//! seed version is wrong, and asserts that collidoscope gives the right answer, worked out by hand in the
//! comments.
#![allow(clippy::unwrap_used)]

use collidoscope::glam::{DVec3, Mat3, Vec2, Vec3};
use collidoscope::query::{Cull, overlap, ray, sat, sweep, triangle};
use collidoscope::shape::{Aabb, Cylinder, Obb, Ray, Sphere, Triangle, Wall};
use collidoscope::walls;

fn close(a: f32, b: f32, tol: f32) -> bool {
    (a - b).abs() <= tol
}

fn close3(a: Vec3, b: Vec3, tol: f32) -> bool {
    (a - b).abs().max_element() <= tol
}

// =====================================================================================================
// Seed 000: Simon Maurice, "OpenGL ES 17 - Collision Detection" (walk test, angle-sum point in triangle).
// =====================================================================================================

/// `#define DOT(v1, v2)` in `float`.
fn dot_f(a: Vec3, b: Vec3) -> f32 {
    a.x * b.x + a.y * b.y + a.z * b.z
}

/// `triangleNormal(triangle, normal)`: the unit normal of `(b - a) x (c - a)` (the project's C helper is not
/// printed; any normal along the plane gives the same crossing test).
fn maurice_triangle_normal(tri: &Triangle) -> Vec3 {
    (tri.b - tri.a).cross(tri.c - tri.a).normalize()
}

/// `locationToPlane`: `D = A*x + B*y + C*z` for the first vertex, then `DOT(normal, location) + D`.
/// The plane is `n . p == D`, so the signed distance is `n . p - D`: the seed's `+ D` is wrong for any plane
/// not through the origin.
fn maurice_location_to_plane(tri: &Triangle, p: Vec3) -> f32 {
    let n = maurice_triangle_normal(tri);
    let a = n.x * tri.a.x;
    let b = n.y * tri.a.y;
    let c = n.z * tri.a.z;
    let d = a + b + c;
    dot_f(n, p) + d
}

/// `intersectWithPlane(fromPos, toPos, triangle, intPoint)`.
fn maurice_intersect_with_plane(from: Vec3, to: Vec3, tri: &Triangle) -> Vec3 {
    let n = maurice_triangle_normal(tri);
    let line = to - from;
    let a = dot_f(line, n);
    if a == 0.0 {
        return from;
    }
    let distance = maurice_location_to_plane(tri, from);
    let b = line * (distance / a);
    from - b
}

/// `pointInTriangle(triangle, intPoint)`: the angle-sum test, float arithmetic, `acos` in double, the sum
/// kept in a float, `2*M_PI -/+ 0.0001` compared in double.
fn maurice_point_in_triangle(tri: &Triangle, p: Vec3) -> bool {
    let s1 = tri.a - p;
    let s2 = tri.b - p;
    let s3 = tri.c - p;
    let l1 = (s1.x * s1.x + s1.y * s1.y + s1.z * s1.z).sqrt();
    let l2 = (s2.x * s2.x + s2.y * s2.y + s2.z * s2.z).sqrt();
    let l3 = (s3.x * s3.x + s3.y * s3.y + s3.z * s3.z).sqrt();
    if l1 * l2 <= 0.0 || l2 * l3 <= 0.0 || l3 * l1 <= 0.0 {
        return true;
    }
    let mut angle_sum: f32 = 0.0;
    let cos_angle = dot_f(s1, s2) / (l1 * l2);
    angle_sum = (f64::from(angle_sum) + f64::from(cos_angle).acos()) as f32;
    let cos_angle = dot_f(s2, s3) / (l2 * l3);
    angle_sum = (f64::from(angle_sum) + f64::from(cos_angle).acos()) as f32;
    let cos_angle = dot_f(s3, s1) / (l3 * l1);
    angle_sum = (f64::from(angle_sum) + f64::from(cos_angle).acos()) as f32;
    let two_pi = 2.0 * std::f64::consts::PI;
    // `(angleSum >= 2*M_PI - 0.0001) && (angleSum <= 2*M_PI + 0.0001)`; a NaN sum fails both.
    ((two_pi - 0.0001)..=(two_pi + 0.0001)).contains(&f64::from(angle_sum))
}

/// The `MTWalkForward` case of `handleTouches`: `true` when the seed detects a collision (and does not move).
fn maurice_walk_collides(position: Vec3, dest: Vec3, tri: &Triangle) -> bool {
    let distance_from = maurice_location_to_plane(tri, position);
    let distance_after = maurice_location_to_plane(tri, dest);
    if distance_from * distance_after < 0.0 {
        let int_point = maurice_intersect_with_plane(position, dest, tri);
        if maurice_point_in_triangle(tri, int_point) {
            return true;
        }
    }
    false
}

#[test]
fn angle_sum_tolerance_and_acos_domain() {
    let tri = Triangle::new(Vec3::ZERO, Vec3::X, Vec3::Y);

    // (1) acos domain. p = (0.5, 0.5, 0) is the midpoint of the edge b..c (x + y = 1).
    // Segments to the vertices: s1 = (-0.5, -0.5), s2 = (0.5, -0.5), s3 = (-0.5, 0.5); |s| = sqrt(0.5) each,
    // and in f32 sqrt(0.5) = 0.70710677, whose square rounds to 0.49999997. So
    // cos(s2, s3) = (-0.25 - 0.25) / 0.49999997 = -1.0000001 < -1, acos of it is NaN, the NaN sum fails both
    // comparisons and the seed calls a point on the edge "outside".
    let on_edge = Vec3::new(0.5, 0.5, 0.0);
    let l = 0.5f32.sqrt();
    assert!(-0.5 / (l * l) < -1.0, "the f32 cosine leaves acos's domain");
    assert!(
        !maurice_point_in_triangle(&tri, on_edge),
        "seed rejects an edge point"
    );
    // Collidoscope: the edge counts (touching counts); the kept angle-sum variant clamps the cosine in f64.
    assert!(triangle::point_in_triangle(on_edge, &tri));
    assert!(triangle::point_in_triangle_angle_sum(on_edge, &tri));

    // (2) The fixed 0.0001 tolerance is finer than acos's own rounding near cos = -1. On the same edge at
    // (0.4375, 0.5625) (exact in binary) the f32 cosine of the straight angle comes out as -0.99999994 and
    // acos(-0.99999994) = pi - 3.45e-4, so the sum is 2 pi - 3.45e-4: outside the tolerance, rejected.
    let on_edge2 = Vec3::new(0.4375, 0.5625, 0.0);
    assert!(
        !maurice_point_in_triangle(&tri, on_edge2),
        "seed rejects a second edge point"
    );
    assert!(triangle::point_in_triangle(on_edge2, &tri));
    assert!(triangle::point_in_triangle_angle_sum(on_edge2, &tri));

    // A point strictly inside, 1/65536 above the edge a..b at x = 1/8: the true angle sum is exactly 2 pi, but
    // the f32 cosine near -1 rounds to -1.0 exactly (acos = pi), over-estimating the straight-ish angle by
    // ~1.4e-4: rejected again.
    let inside = Vec3::new(0.125, 1.0 / 65536.0, 0.0);
    assert!(
        !maurice_point_in_triangle(&tri, inside),
        "seed rejects an interior point"
    );
    assert!(triangle::point_in_triangle(inside, &tri));
    assert!(triangle::point_in_triangle_angle_sum(inside, &tri));

    // (3) ... and the same tolerance lets points outside in. Edge a..b of length L = 100 (the longest edge),
    // p = (50, -1.15e-3) just outside it. Seen from p the edge spans pi - 2 atan(1.15e-3 / 50) = pi - 4.6e-5,
    // and for a point beyond one edge the three angles sum to twice that: 2 pi - 9.2e-5, inside the seed's
    // 1e-4 window. Collidoscope's robust test allows 1e-5 of the longest edge (1e-3 here) and the point is
    // 1.15e-3 away: outside. Its angle-sum variant uses a 1e-6 rad window: outside too.
    let big = Triangle::new(
        Vec3::ZERO,
        Vec3::new(100.0, 0.0, 0.0),
        Vec3::new(50.0, 40.0, 0.0),
    );
    let outside = Vec3::new(50.0, -1.15e-3, 0.0);
    assert!(
        maurice_point_in_triangle(&big, outside),
        "seed accepts an outside point"
    );
    assert!(!triangle::point_in_triangle(outside, &big));
    assert!(!triangle::point_in_triangle_angle_sum(outside, &big));

    // Control: an ordinary interior point and an ordinary exterior one work in the seed too.
    assert!(maurice_point_in_triangle(&tri, Vec3::new(0.25, 0.25, 0.0)));
    assert!(!maurice_point_in_triangle(&tri, Vec3::new(1.0, 1.0, 0.0)));
}

#[test]
fn maurice_walk_test_plane_offset_has_wrong_sign() {
    // A wall in the plane z = -5: (b - a) x (c - a) = (4, 0, 0) x (2, 3, 0) = (0, 0, 12), unit normal +z,
    // plane constant D = n . a = -5. The seed's "distance" is n . p + D = z - 5 (a plane at z = +5), so the
    // walk from z = -4 to z = -6 gives -9 and -11: same sign, "no crossing", the walker passes through.
    let wall = Triangle::new(
        Vec3::new(-2.0, 0.0, -5.0),
        Vec3::new(2.0, 0.0, -5.0),
        Vec3::new(0.0, 3.0, -5.0),
    );
    let from = Vec3::new(0.0, 1.0, -4.0);
    let to = Vec3::new(0.0, 1.0, -6.0);
    assert_eq!(maurice_location_to_plane(&wall, from), -9.0);
    assert_eq!(maurice_location_to_plane(&wall, to), -11.0);
    assert!(
        !maurice_walk_collides(from, to, &wall),
        "seed walks through"
    );
    // Collidoscope: signed distances n . (p - a) are +1 and -1 (times |n| = 12), the crossing is half-way,
    // at (0, 1, -5); at height y = 1 the wall spans x in [-4/3, 4/3], so x = 0 is on it.
    assert_eq!(
        triangle::walk_test(from, to, &wall),
        Some(Vec3::new(0.0, 1.0, -5.0))
    );
    // Control: for a wall through the origin (D = 0) the seed's sign does not matter and it works.
    let wall0 = Triangle::new(
        Vec3::new(-2.0, 0.0, 0.0),
        Vec3::new(2.0, 0.0, 0.0),
        Vec3::new(0.0, 3.0, 0.0),
    );
    assert!(maurice_walk_collides(
        Vec3::new(0.0, 1.0, 1.0),
        Vec3::new(0.0, 1.0, -1.0),
        &wall0
    ));
}

#[test]
fn maurice_walk_ending_on_plane_lets_walker_through() {
    // Wall in z = 0 (D = 0, so the seed's sign slip plays no part). The walker at z = 1 steps 1 along -z.
    let wall = Triangle::new(
        Vec3::new(-2.0, 0.0, 0.0),
        Vec3::new(2.0, 0.0, 0.0),
        Vec3::new(0.0, 3.0, 0.0),
    );
    let start = Vec3::new(0.0, 1.0, 1.0);
    let step = Vec3::new(0.0, 0.0, -1.0);
    // Step 1 ends exactly on the plane: distances 1 and 0, product 0, not "< 0": the seed lets it move.
    let on = start + step;
    assert!(!maurice_walk_collides(start, on, &wall));
    // Step 2 starts on the plane: product 0 again, so the seed moves the walker through the wall.
    assert!(!maurice_walk_collides(on, on + step, &wall));
    // Collidoscope: ending on the plane counts as reaching the wall (touching counts) at (0, 1, 0), so the
    // walker is stopped before the first step; starting on the plane and walking away is not a crossing.
    assert_eq!(triangle::walk_test(start, on, &wall), Some(on));
    assert_eq!(triangle::walk_test(on, start, &wall), None);
}

// =====================================================================================================
// Seed 001: Simon Maurice, "OpenGL ES 17.5 - Moller & Trumbore".
// =====================================================================================================

/// `intersect_triangle` as printed (the 1997 paper's culling branch, `EPSILON` 0.000001, no test on `t`).
fn seed_intersect_triangle(orig: Vec3, dir: Vec3, tri: &Triangle) -> Option<(f32, f32, f32)> {
    const EPSILON: f32 = 0.000_001;
    let edge1 = tri.b - tri.a;
    let edge2 = tri.c - tri.a;
    let pvec = dir.cross(edge2);
    let det = dot_f(edge1, pvec);
    if det < EPSILON {
        return None;
    }
    let tvec = orig - tri.a;
    let u = dot_f(tvec, pvec);
    if u < 0.0 || u > det {
        return None;
    }
    let qvec = tvec.cross(edge1);
    let v = dot_f(dir, qvec);
    if v < 0.0 || u + v > det {
        return None;
    }
    let t = dot_f(edge2, qvec);
    let inv_det = 1.0 / det;
    Some((t * inv_det, u * inv_det, v * inv_det))
}

/// The seed's call site: `normalize(vector); VECT_ADD(ray, vector, position);` then
/// `intersect_triangle(position, ray, ...)`: the direction argument is `position + direction`.
fn maurice_call(position: Vec3, facing_dir: Vec3, tri: &Triangle) -> Option<(f32, f32, f32)> {
    let ray = facing_dir.normalize() + position;
    seed_intersect_triangle(position, ray, tri)
}

#[test]
fn maurice_passes_position_plus_direction() {
    // (1) A missed wall. Triangle in z = 0, wound so its front faces -z, toward the walker:
    // (b - a) x (c - a) = (1, 2, 0) x (2, 0, 0) = (0, 0, -4).
    let wall = Triangle::new(
        Vec3::new(2.0, -1.0, 0.0),
        Vec3::new(3.0, 1.0, 0.0),
        Vec3::new(4.0, -1.0, 0.0),
    );
    let position = Vec3::new(3.0, 0.0, -5.0);
    let facing = Vec3::Z;
    // The seed casts along position + dir = (3, 0, -4), away from the wall: det = -dir . n = -16 < EPSILON.
    assert_eq!(maurice_call(position, facing, &wall), None);
    // The right ray (origin (3, 0, -5), dir +z) meets z = 0 at t = 5, at (3, 0, 0):
    // (3, 0) = a + u (b - a) + v (c - a) = (2, -1) + u (1, 2) + v (2, 0): y gives u = 1/2, x gives v = 1/4.
    let hit = triangle::moller_trumbore(&Ray::new(position, facing), &wall, Cull::Back).unwrap();
    assert!(close(hit.t, 5.0, 1e-6) && close(hit.u, 0.5, 1e-6) && close(hit.v, 0.25, 1e-6));
    // Control: the seed's own routine is right when called with the direction.
    let (t, u, v) = seed_intersect_triangle(position, facing, &wall).unwrap();
    assert!(close(t, 5.0, 1e-6) && close(u, 0.5, 1e-6) && close(v, 0.25, 1e-6));

    // (2) A phantom wall. Triangle in z = -10 facing +z: (6, 0, 0) x (3, 6, 0) = (0, 0, 36). The walker at
    // (0, 0, -5) walks along +x, parallel to the wall: the true ray never reaches z = -10.
    let floor_wall = Triangle::new(
        Vec3::new(-2.0, -2.0, -10.0),
        Vec3::new(4.0, -2.0, -10.0),
        Vec3::new(1.0, 4.0, -10.0),
    );
    let position = Vec3::new(0.0, 0.0, -5.0);
    // The seed's direction (1, 0, -5) heads for the wall and reaches z = -10 at t = 1, at (1, 0, -10):
    // (1, 0) = (-2, -2) + u (6, 0) + v (3, 6): v = 1/3, u = 1/3.
    let (t, u, v) = maurice_call(position, Vec3::X, &floor_wall).unwrap();
    assert!(close(t, 1.0, 1e-6) && close(u, 1.0 / 3.0, 1e-6) && close(v, 1.0 / 3.0, 1e-6));
    assert_eq!(
        triangle::moller_trumbore(&Ray::new(position, Vec3::X), &floor_wall, Cull::None),
        None
    );
}

// =====================================================================================================
// Seed 002: Game Physics Cookbook, chapters 9-11 (SAT, slab raycasts).
// =====================================================================================================

/// The book's `OBB` layout: `orientation.asArray` rows are the box axes; here the axes directly.
fn obb_axes(o: &Obb) -> [Vec3; 3] {
    [o.rotation.x_axis, o.rotation.y_axis, o.rotation.z_axis]
}

/// `Interval GetInterval(const OBB& obb, const vec3& axis)`: the eight vertices projected.
fn cookbook_get_interval(obb: &Obb, axis: Vec3) -> (f32, f32) {
    let c = obb.center;
    let e = obb.half_extents;
    let a = obb_axes(obb);
    let vertex = [
        c + a[0] * e[0] + a[1] * e[1] + a[2] * e[2],
        c - a[0] * e[0] + a[1] * e[1] + a[2] * e[2],
        c + a[0] * e[0] - a[1] * e[1] + a[2] * e[2],
        c + a[0] * e[0] + a[1] * e[1] - a[2] * e[2],
        c - a[0] * e[0] - a[1] * e[1] - a[2] * e[2],
        c + a[0] * e[0] - a[1] * e[1] - a[2] * e[2],
        c - a[0] * e[0] + a[1] * e[1] - a[2] * e[2],
        c - a[0] * e[0] - a[1] * e[1] + a[2] * e[2],
    ];
    let mut min = dot_f(axis, vertex[0]);
    let mut max = min;
    for v in &vertex[1..] {
        let projection = dot_f(axis, *v);
        min = if projection < min { projection } else { min };
        max = if projection > max { projection } else { max };
    }
    (min, max)
}

/// `bool OverlapOnAxis(const OBB& obb1, const OBB& obb2, const vec3& axis)` exactly as printed:
/// `Interval a = GetInterval(obb1, axis); Interval b = GetInterval(obb1, axis);`.
fn cookbook_overlap_on_axis_as_printed(obb1: &Obb, _obb2: &Obb, axis: Vec3) -> bool {
    let a = cookbook_get_interval(obb1, axis);
    let b = cookbook_get_interval(obb1, axis);
    b.0 <= a.1 && a.0 <= b.1
}

/// `OverlapOnAxis` with the second interval taken from `obb2`, as intended.
fn cookbook_overlap_on_axis_fixed(obb1: &Obb, obb2: &Obb, axis: Vec3) -> bool {
    let a = cookbook_get_interval(obb1, axis);
    let b = cookbook_get_interval(obb2, axis);
    b.0 <= a.1 && a.0 <= b.1
}

/// `OBBOBB`'s axis array as printed: the first six are the boxes' axes, and the loop fills the rest with
/// `Cross(test[i], test[0..3])` (both factors from `obb1`'s frame, so the real edge-edge axes never appear).
fn cookbook_axes_as_printed(obb1: &Obb, obb2: &Obb) -> [Vec3; 15] {
    let mut test = [Vec3::ZERO; 15];
    test[..3].copy_from_slice(&obb_axes(obb1));
    test[3..6].copy_from_slice(&obb_axes(obb2));
    for i in 0..3 {
        test[6 + i * 3] = test[i].cross(test[0]);
        test[6 + i * 3 + 1] = test[i].cross(test[1]);
        test[6 + i * 3 + 2] = test[i].cross(test[2]);
    }
    test
}

/// The 15 axes as the text describes them (`A.i x B.j`), optionally `Normalized()` (the book's
/// `v * (1.0f / Magnitude(v))`).
fn cookbook_axes_intended(obb1: &Obb, obb2: &Obb, normalise: bool) -> Vec<Vec3> {
    let a = obb_axes(obb1);
    let b = obb_axes(obb2);
    let mut test: Vec<Vec3> = a.iter().chain(b.iter()).copied().collect();
    for ai in a {
        for bj in b {
            let c = ai.cross(bj);
            test.push(if normalise { c * (1.0 / c.length()) } else { c });
        }
    }
    test
}

fn cookbook_obb_obb(
    obb1: &Obb,
    obb2: &Obb,
    axes: &[Vec3],
    overlap_on_axis: fn(&Obb, &Obb, Vec3) -> bool,
) -> bool {
    axes.iter().all(|&axis| overlap_on_axis(obb1, obb2, axis))
}

#[test]
fn cookbook_obb_obb_uses_obb1_interval_twice() {
    // Two unit cubes 10 apart along x: plainly disjoint.
    let a = Obb::new(Vec3::ZERO, Vec3::ONE, Mat3::IDENTITY);
    let b = Obb::new(Vec3::new(10.0, 0.0, 0.0), Vec3::ONE, Mat3::IDENTITY);
    // The printed OverlapOnAxis compares obb1's interval with itself: every axis "overlaps", always.
    let printed = cookbook_axes_as_printed(&a, &b);
    assert!(cookbook_obb_obb(
        &a,
        &b,
        &printed,
        cookbook_overlap_on_axis_as_printed
    ));
    // Even a turned box far away "overlaps".
    let turned = Obb::new(
        Vec3::new(-7.0, 3.0, 50.0),
        Vec3::new(1.0, 2.0, 0.5),
        Mat3::from_rotation_y(0.4),
    );
    assert!(cookbook_obb_obb(
        &a,
        &turned,
        &cookbook_axes_as_printed(&a, &turned),
        cookbook_overlap_on_axis_as_printed
    ));
    // Collidoscope: disjoint. The first axis, a's x, separates: a projects to [-1, 1], b to 10 -+ 1 = [9, 11].
    assert!(!overlap::obb_obb(&a, &b));
    assert!(!overlap::obb_obb(&a, &turned));
    let report = sat::obb_obb_axes(&a, &b);
    assert_eq!(report.separating, Some(0));
    let s = &report.axes[0];
    assert_eq!(s.axis, Vec3::X);
    assert_eq!((s.a.min, s.a.max, s.b.min, s.b.max), (-1.0, 1.0, 9.0, 11.0));
    // Control: with each box's own interval the book's face axes find it too.
    assert!(!cookbook_obb_obb(
        &a,
        &b,
        &printed,
        cookbook_overlap_on_axis_fixed
    ));
}

#[test]
fn cookbook_sat_cross_axes_come_from_one_box() {
    // A second slip in the same listing: `Cross(test[i], test[0])` crosses obb1's axes with obb1's axes, so
    // the nine edge-edge axes are never tested. Two cubes meeting edge to edge show it.
    // A: unit half extents turned 45 degrees about z: a vertical edge (along z) at x = sqrt(2), y = 0.
    // B: turned 45 degrees about y, centre at x = c: an edge along y at x = c - sqrt(2), z = 0.
    // The edges are 0.1 apart along x when c = 2 sqrt(2) + 0.1; the separating axis is a_z x b_y = z x y = -x.
    // Every face axis overlaps: e.g. on a_x = (1, 1, 0)/sqrt(2), b's centre projects to c/sqrt(2) = 2.0707
    // and its radius is 1/2 + 1/sqrt(2) + 1/2 = 1.7071, so b spans [0.3636, 3.78] against a's [-1, 1].
    let s2 = 2f32.sqrt();
    let a = Obb::new(
        Vec3::ZERO,
        Vec3::ONE,
        Mat3::from_rotation_z(std::f32::consts::FRAC_PI_4),
    );
    let b_at = |c: f32| {
        Obb::new(
            Vec3::new(c, 0.0, 0.0),
            Vec3::ONE,
            Mat3::from_rotation_y(std::f32::consts::FRAC_PI_4),
        )
    };
    let apart = b_at(2.0 * s2 + 0.1);
    // Even with OverlapOnAxis repaired, the printed axis list misses the separation.
    assert!(cookbook_obb_obb(
        &a,
        &apart,
        &cookbook_axes_as_printed(&a, &apart),
        cookbook_overlap_on_axis_fixed
    ));
    // Control: the intended 15 axes (raw cross products) find it.
    assert!(!cookbook_obb_obb(
        &a,
        &apart,
        &cookbook_axes_intended(&a, &apart, false),
        cookbook_overlap_on_axis_fixed
    ));
    // Collidoscope: disjoint, separated by a cross axis (index >= 6, after the six face axes), on which the
    // two intervals are 0.1 apart along -x ... or more on another cross axis.
    assert!(!overlap::obb_obb(&a, &apart));
    let report = sat::obb_obb_axes(&a, &apart);
    let i = report.separating.unwrap();
    assert!(i >= 6, "separated by a cross axis, got {i}");
    let s = &report.axes[i];
    assert!(s.a.max < s.b.min || s.b.max < s.a.min);
    // 0.1 closer than touching the edges cross: overlapping.
    assert!(overlap::obb_obb(&a, &b_at(2.0 * s2 - 0.1)));
}

#[test]
fn sat_near_zero_cross_axes_are_skipped() {
    // Box b has a's orientation turned by 2e-7 rad about a's x axis: a_x and b_x are the same vector
    // (the x column of R * Rx is exactly R's x column), and a_y x b_y, a_z x b_z have length ~2e-7 buried in
    // f32 rounding (~6e-8 per component): a direction that is mostly noise.
    let r = Mat3::from_axis_angle(Vec3::new(1.0, 2.0, 3.0).normalize(), 0.7);
    let rb = r * Mat3::from_rotation_x(2e-7);
    let a = Obb::new(Vec3::ZERO, Vec3::ONE, r);
    let b_at = |c: Vec3| Obb::new(c, Vec3::ONE, rb);

    let raw: Vec<f32> = [0usize, 1, 2]
        .iter()
        .map(|&i| {
            obb_axes(&a)[i]
                .cross(obb_axes(&b_at(Vec3::ZERO))[i])
                .length()
        })
        .collect();
    assert_eq!(raw[0], 0.0, "a_x x b_x is exactly zero");
    assert!(
        raw[1] < 1e-6 && raw[2] < 1e-6,
        "near-zero cross axes: {raw:?}"
    );

    // Deeply overlapping: b's centre is 0.5 along a_x and 0.2 along a_y from a's.
    let overlapping = b_at(r.x_axis * 0.5 + r.y_axis * 0.2);
    // The book's raw cross products give the zero axis the interval [0, 0] on both sides: harmless
    // ("overlap"), so the Cookbook test is right here...
    assert!(cookbook_obb_obb(
        &a,
        &overlapping,
        &cookbook_axes_intended(&a, &overlapping, false),
        cookbook_overlap_on_axis_fixed
    ));
    // ... but normalising that axis (`Normalized`, v * (1 / |v|)) turns the zero vector into NaN: every
    // projection is NaN, `b.min <= a.max` is false, and the NaN "axis" separates overlapping boxes.
    assert!(!cookbook_obb_obb(
        &a,
        &overlapping,
        &cookbook_axes_intended(&a, &overlapping, true),
        cookbook_overlap_on_axis_fixed
    ));

    // Collidoscope: the three degenerate cross axes are skipped, not listed: 15 - 3 = 12 axes, every one a
    // unit vector, none separating.
    assert!(overlap::obb_obb(&a, &overlapping));
    let report = sat::obb_obb_axes(&a, &overlapping);
    assert_eq!(report.separating, None);
    assert_eq!(report.axes.len(), 12);
    for s in &report.axes {
        assert!(
            close(s.axis.length(), 1.0, 1e-5),
            "listed axis {:?} is not unit",
            s.axis
        );
        assert!(s.a.min <= s.b.max && s.b.min <= s.a.max);
    }

    // Separated along a's y face by a gap of 0.5: centre 2.5 along a_y. The first face axis (a_x) overlaps,
    // the second (a_y) separates: a projects to [-1, 1], b to 2.5 -+ (1 + |a_y . b_y - 1| + ...) = [1.5, 3.5].
    let apart = b_at(r.y_axis * 2.5);
    assert!(!overlap::obb_obb(&a, &apart));
    let report = sat::obb_obb_axes(&a, &apart);
    assert_eq!(report.separating, Some(1));
    let s = &report.axes[1];
    assert!(close3(s.axis, r.y_axis, 1e-6));
    let ca = a.center.dot(s.axis);
    assert!(close(s.a.min - ca, -1.0, 1e-5) && close(s.a.max - ca, 1.0, 1e-5));
    assert!(close(s.b.min - ca, 1.5, 1e-5) && close(s.b.max - ca, 3.5, 1e-5));
    assert!(
        report
            .axes
            .iter()
            .all(|s| close(s.axis.length(), 1.0, 1e-5))
    );
}

/// `float Raycast(const AABB& aabb, const Ray& ray)` as printed (the NOTE about zero components unheeded).
/// `fminf`/`fmaxf` ignore a NaN argument, as Rust's `f32::min`/`max` do.
fn cookbook_raycast_aabb(aabb: &Aabb, origin: Vec3, dir: Vec3) -> f32 {
    let (min, max) = (aabb.min, aabb.max);
    let t1 = (min.x - origin.x) / dir.x;
    let t2 = (max.x - origin.x) / dir.x;
    let t3 = (min.y - origin.y) / dir.y;
    let t4 = (max.y - origin.y) / dir.y;
    let t5 = (min.z - origin.z) / dir.z;
    let t6 = (max.z - origin.z) / dir.z;
    let tmin = t1.min(t2).max(t3.min(t4)).max(t5.min(t6));
    let tmax = t1.max(t2).min(t3.max(t4)).min(t5.max(t6));
    if tmax < 0.0 {
        return -1.0;
    }
    if tmin > tmax {
        return -1.0;
    }
    if tmin < 0.0 {
        return tmax;
    }
    tmin
}

/// The book's `CMP(x, y)`: `fabsf(x - y) <= FLT_EPSILON * fmaxf(1.0f, fmaxf(fabsf(x), fabsf(y)))`.
fn cmp(x: f32, y: f32) -> bool {
    (x - y).abs() <= f32::EPSILON * 1.0f32.max(x.abs().max(y.abs()))
}

/// `float Raycast(const OBB& obb, const Ray& ray)` as printed, with its `f[i] = 0.00001f` patch.
fn cookbook_raycast_obb(obb: &Obb, origin: Vec3, dir: Vec3) -> f32 {
    let size = obb.half_extents;
    let [x, y, z] = obb_axes(obb);
    let p = obb.center - origin;
    let mut f = Vec3::new(dot_f(x, dir), dot_f(y, dir), dot_f(z, dir));
    let e = Vec3::new(dot_f(x, p), dot_f(y, p), dot_f(z, p));
    let mut t = [0.0f32; 6];
    for i in 0..3 {
        if cmp(f[i], 0.0) {
            if -e[i] - size[i] > 0.0 || -e[i] + size[i] < 0.0 {
                return -1.0;
            }
            f[i] = 0.00001; // Avoid div by 0!
        }
        t[i * 2] = (e[i] + size[i]) / f[i];
        t[i * 2 + 1] = (e[i] - size[i]) / f[i];
    }
    let tmin = t[0].min(t[1]).max(t[2].min(t[3])).max(t[4].min(t[5]));
    let tmax = t[0].max(t[1]).min(t[2].max(t[3])).min(t[4].max(t[5]));
    if tmax < 0.0 {
        return -1.0;
    }
    if tmin > tmax {
        return -1.0;
    }
    if tmin < 0.0 {
        return tmax;
    }
    tmin
}

#[test]
fn slab_axis_parallel_ray_is_exact() {
    // (1) AABB, division by zero. Box [0, 1]^3, ray from (-1, 1, 0.5) along +x: it runs along the top face
    // y = 1 (touching counts: it hits the edge x = 0, y = 1 at t = 1).
    // Seed: t3 = (0 - 1) / 0 = -inf, t4 = (1 - 1) / 0 = NaN; fmaxf(-inf, NaN) = -inf, so tmax = -inf < 0:
    // "miss".
    let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
    let origin = Vec3::new(-1.0, 1.0, 0.5);
    assert_eq!(cookbook_raycast_aabb(&b, origin, Vec3::X), -1.0);
    let hit = ray::ray_aabb(&Ray::new(origin, Vec3::X), &b, f32::INFINITY).unwrap();
    assert_eq!(
        (hit.t, hit.point, hit.normal),
        (1.0, Vec3::new(0.0, 1.0, 0.5), -Vec3::X)
    );
    // Slabs: x from (0 - -1)/1 = 1 to (1 - -1)/1 = 2; y and z parallel and inside (y = 1 is on the
    // boundary, which counts): -inf..inf; hit [1, 2].
    let tr = ray::ray_aabb_slabs(&Ray::new(origin, Vec3::X), &b);
    assert_eq!((tr.axes[0].min, tr.axes[0].max), (1.0, 2.0));
    for i in 1..3 {
        assert_eq!(
            (tr.axes[i].min, tr.axes[i].max),
            (f32::NEG_INFINITY, f32::INFINITY)
        );
    }
    let h = tr.hit.unwrap();
    assert_eq!((h.min, h.max), (1.0, 2.0));
    // Control: off the boundary (y = 0.5) the IEEE infinities happen to work in the seed.
    assert_eq!(
        cookbook_raycast_aabb(&b, Vec3::new(-1.0, 0.5, 0.5), Vec3::X),
        1.0
    );

    // (2) OBB, the `f = 0.00001` patch. Unit box centred at (1000, 0, 0); ray from (0, 0.995, 0) along +x,
    // parallel to the y slab and 0.005 inside it. Seed: e = (1000, -0.995, 0);
    // x slab: (1000 + 1)/1 = 1001 and 999; y slab: (-0.995 + 1)/1e-5 = 500 and (-0.995 - 1)/1e-5 = -199500;
    // z slab: +-100000. tmin = max(999, -199500, -100000) = 999 > tmax = min(1001, 500, 100000) = 500: "miss".
    let obb = Obb::new(Vec3::new(1000.0, 0.0, 0.0), Vec3::ONE, Mat3::IDENTITY);
    let origin = Vec3::new(0.0, 0.995, 0.0);
    assert_eq!(cookbook_raycast_obb(&obb, origin, Vec3::X), -1.0);
    // Truth: the face x = 999 is reached at t = 999, at (999, 0.995, 0), normal -x.
    let r = Ray::new(origin, Vec3::X);
    let hit = ray::ray_obb(&r, &obb, f32::INFINITY).unwrap();
    assert_eq!(hit.t, 999.0);
    assert!(close3(hit.point, Vec3::new(999.0, 0.995, 0.0), 1e-4));
    assert!(close3(hit.normal, -Vec3::X, 1e-6));
    let tr = ray::ray_obb_slabs(&r, &obb);
    assert_eq!((tr.axes[0].min, tr.axes[0].max), (999.0, 1001.0));
    assert_eq!(
        (tr.axes[1].min, tr.axes[1].max),
        (f32::NEG_INFINITY, f32::INFINITY)
    );
    assert_eq!(
        (tr.axes[2].min, tr.axes[2].max),
        (f32::NEG_INFINITY, f32::INFINITY)
    );
    let h = tr.hit.unwrap();
    assert_eq!((h.min, h.max), (999.0, 1001.0));
    // Parallel and outside (y = 1.5): the seed's early exit is right, and collidoscope's slab is empty.
    assert_eq!(
        cookbook_raycast_obb(&obb, Vec3::new(0.0, 1.5, 0.0), Vec3::X),
        -1.0
    );
    let tr = ray::ray_obb_slabs(&Ray::new(Vec3::new(0.0, 1.5, 0.0), Vec3::X), &obb);
    assert!(tr.axes[1].min > tr.axes[1].max);
    assert_eq!(tr.hit, None);
}

// =====================================================================================================
// Seed 003: CodeProject, "My First Collision Algorithm" (slope-intercept point-to-segment distance).
// =====================================================================================================

/// The article's `Segment` struct. Its constructor is not printed; the text says
/// `M = (Y1 - Y2)/(X1 - X2)` and "to avoid division by zero I add a very small number if (X1 - X2) leads to
/// zero". The value of that number plays no part in the failures below.
struct CodeProjectSegment {
    first: Vec2,
    second: Vec2,
    m1: f32,
    n1: f32,
    m2: f32,
}

impl CodeProjectSegment {
    fn new(first: Vec2, second: Vec2) -> Self {
        let mut dx = first.x - second.x;
        if dx == 0.0 {
            dx += 0.0001;
        }
        let m1 = (first.y - second.y) / dx;
        let n1 = first.y - m1 * first.x;
        let m2 = -1.0 / m1;
        Self {
            first,
            second,
            m1,
            n1,
            m2,
        }
    }

    /// `DistToSegment` as printed (C# `float`; `Math.Min`).
    fn dist_to_segment(&self, other: Vec2) -> f32 {
        let n2 = other.y - self.m2 * other.x;
        let ix = (n2 - self.n1) / (self.m1 - self.m2);
        let iy = self.m1 * ix + self.n1;
        let d = Vec2::new(ix, iy).distance(other);
        let dist1 = other.distance(self.first);
        let dist2 = other.distance(self.second);
        if (ix < self.first.x && ix > self.second.x) || (ix > self.first.x && ix < self.second.x) {
            d
        } else {
            dist1.min(dist2)
        }
    }
}

#[test]
fn codeproject_vertical_and_horizontal_walls() {
    // The house's first two walls (collision distance 0.5).
    // Horizontal: (-24.4, -14.1) to (18.9, -14.1). Camera at (1, -14.3), 0.2 below it: blocked.
    // Seed: m1 = 0 / -43.3 = -0, m2 = -1 / -0 = +inf, n2 = -14.3 - inf * 1 = -inf,
    // x = (-inf - n1) / (-0 - inf) = NaN: every comparison fails and the seed answers the distance to the
    // nearer end, (18.9, -14.1): sqrt(17.9^2 + 0.2^2) = 17.9011.
    let (h0, h1) = (Vec2::new(-24.4, -14.1), Vec2::new(18.9, -14.1));
    let seed = CodeProjectSegment::new(h0, h1);
    let p = Vec2::new(1.0, -14.3);
    let d_seed = seed.dist_to_segment(p);
    assert!(close(d_seed, 17.9011, 1e-3), "{d_seed}");
    assert!(
        d_seed >= 0.5,
        "seed: not blocked, the camera walks into the wall"
    );
    let wall = Wall::new(h0, h1, 0.5);
    assert!(close(walls::distance_point_wall(p, &wall), 0.2, 1e-5));
    assert!(walls::blocked(p, &[wall]));

    // Vertical: (-24.4, -14.1) to (-24.4, 13.2). Camera at (-24.1, 0), 0.3 beside it: blocked.
    // Seed: "inside" needs first.x < x < second.x (or the reverse) with first.x == second.x: impossible, so
    // it answers the nearer end, (-24.4, 13.2): sqrt(0.3^2 + 13.2^2) = sqrt(174.33) = 13.2034.
    let (v0, v1) = (Vec2::new(-24.4, -14.1), Vec2::new(-24.4, 13.2));
    let seed = CodeProjectSegment::new(v0, v1);
    let p = Vec2::new(-24.1, 0.0);
    let d_seed = seed.dist_to_segment(p);
    assert!(close(d_seed, 13.2034, 1e-3), "{d_seed}");
    assert!(d_seed >= 0.5);
    let wall = Wall::new(v0, v1, 0.5);
    assert!(close(walls::distance_point_wall(p, &wall), 0.3, 1e-5));
    assert!(walls::blocked(p, &[wall]));

    // Control: on a diagonal wall (0, 0) to (4, 4) the seed's algebra works: m1 = 1, n1 = 0, m2 = -1,
    // from (2, 0): n2 = 2, foot x = (2 - 0) / 2 = 1, y = 1, distance sqrt(2).
    let seed = CodeProjectSegment::new(Vec2::ZERO, Vec2::splat(4.0));
    let d = seed.dist_to_segment(Vec2::new(2.0, 0.0));
    assert!(close(d, 2f32.sqrt(), 1e-6));
    let diag = Wall::new(Vec2::ZERO, Vec2::splat(4.0), 0.5);
    assert!(close(
        walls::distance_point_wall(Vec2::new(2.0, 0.0), &diag),
        2f32.sqrt(),
        1e-6
    ));
}

// =====================================================================================================
// Seed 004: NeHe lesson 30 (150-slice ball-ball test with radius 20; offset primitives).
// =====================================================================================================

/// `TRay::dist(point)`: distance from the point to the ray's (infinite) line.
fn line_dist(origin: DVec3, unit_dir: DVec3, point: DVec3) -> f64 {
    let lambda = unit_dir.dot(point - origin);
    point.distance(origin + unit_dir * lambda)
}

/// `FindBallCol` for one pair (ball `i` against ball `j`), in `double`, as printed: 150 slices of `time2`,
/// a hard-coded contact distance of 40 (= 2 * radius 20). Returns the collision time (`MyTime - Add`).
fn nehe_find_ball_col(
    old_i: DVec3,
    vel_i: DVec3,
    old_j: DVec3,
    vel_j: DVec3,
    time2: f64,
) -> Option<f64> {
    let add = time2 / 150.0;
    let mut timedummy = 10000.0;
    let relative_v = vel_i - vel_j;
    let unit = relative_v.normalize();
    if line_dist(old_i, unit, old_j) > 40.0 {
        return None;
    }
    let mut my_time = 0.0;
    while my_time < time2 {
        my_time += add;
        let posi = old_i + relative_v * my_time;
        if posi.distance(old_j) <= 40.0 {
            if timedummy > my_time - add {
                timedummy = my_time - add;
            }
            break;
        }
    }
    (timedummy != 10000.0).then_some(timedummy)
}

#[test]
fn nehe_150_slices_miss_fast_pair() {
    let r20 = 20.0f32;
    // (1) Fast. Ball i at (-150, 0, 0) with velocity (15000, 0, 0), ball j at rest at the origin, step 1.
    // Slices move i by 15000 / 150 = 100: x = -50 then +50, never within 40 of j: missed.
    let miss = nehe_find_ball_col(
        DVec3::new(-150.0, 0.0, 0.0),
        DVec3::new(15000.0, 0.0, 0.0),
        DVec3::ZERO,
        DVec3::ZERO,
        1.0,
    );
    assert_eq!(miss, None);
    // Truth: |(-150 + 15000 t)| = 40 at t = 110 / 15000 = 0.0073333; i is then at (-40, 0, 0), the normal
    // from j toward i is -x, and the contact point on j's surface is (-20, 0, 0).
    let toi = sweep::sphere_sphere(
        &Sphere::new(Vec3::new(-150.0, 0.0, 0.0), r20),
        Vec3::new(15000.0, 0.0, 0.0),
        &Sphere::new(Vec3::ZERO, r20),
        Vec3::ZERO,
    )
    .unwrap();
    assert!(close(toi.t, 110.0 / 15000.0, 1e-6), "{}", toi.t);
    assert!(close3(toi.normal, -Vec3::X, 1e-6));
    assert!(close3(toi.point, Vec3::new(-20.0, 0.0, 0.0), 1e-3));

    // (2) Grazing. Ball i at (-105, 38.4, 0) with velocity (4500, 0, 0): the line passes 38.4 < 40 from j,
    // touching while |x| <= sqrt(40^2 - 38.4^2) = sqrt(125.44) = 11.2. Slices of 30: x = -15, then +15
    // (distance sqrt(15^2 + 38.4^2) = 41.23 each time): missed.
    let miss = nehe_find_ball_col(
        DVec3::new(-105.0, 38.4, 0.0),
        DVec3::new(4500.0, 0.0, 0.0),
        DVec3::ZERO,
        DVec3::ZERO,
        1.0,
    );
    assert_eq!(miss, None);
    // Truth: contact at x = -11.2, t = (105 - 11.2) / 4500 = 93.8 / 4500 = 0.0208444; normal
    // (-11.2, 38.4, 0) / 40 = (-0.28, 0.96, 0); point on j: 20 * normal = (-5.6, 19.2, 0).
    let toi = sweep::sphere_sphere(
        &Sphere::new(Vec3::new(-105.0, 38.4, 0.0), r20),
        Vec3::new(4500.0, 0.0, 0.0),
        &Sphere::new(Vec3::ZERO, r20),
        Vec3::ZERO,
    )
    .unwrap();
    assert!(close(toi.t, 93.8 / 4500.0, 1e-6), "{}", toi.t);
    assert!(close3(toi.normal, Vec3::new(-0.28, 0.96, 0.0), 1e-5));
    assert!(close3(toi.point, Vec3::new(-5.6, 19.2, 0.0), 1e-3));

    // (3) Hard-coded radius. Balls of radius 1 passing 10 apart: the seed's 40 calls it a collision.
    let phantom = nehe_find_ball_col(
        DVec3::new(-50.0, 10.0, 0.0),
        DVec3::new(100.0, 0.0, 0.0),
        DVec3::ZERO,
        DVec3::ZERO,
        1.0,
    );
    assert!(phantom.is_some());
    // Truth: closest approach 10 > 1 + 1: no contact.
    assert_eq!(
        sweep::sphere_sphere(
            &Sphere::new(Vec3::new(-50.0, 10.0, 0.0), 1.0),
            Vec3::new(100.0, 0.0, 0.0),
            &Sphere::new(Vec3::ZERO, 1.0),
            Vec3::ZERO,
        ),
        None
    );

    // Control: a slow head-on pair is found by the seed, within one slice (1/150) before the true time.
    // i at (-100, 0, 0) with velocity (150, 0, 0): contact when x = -40, t = 60 / 150 = 0.4.
    let seed_t = nehe_find_ball_col(
        DVec3::new(-100.0, 0.0, 0.0),
        DVec3::new(150.0, 0.0, 0.0),
        DVec3::ZERO,
        DVec3::ZERO,
        1.0,
    )
    .unwrap();
    assert!(
        (0.4 - 1.0 / 150.0 - 1e-9..=0.4).contains(&seed_t),
        "{seed_t}"
    );
}

/// NeHe's `TestIntersionCylinder` (Graphics Gems II ray / infinite cylinder; the body is not printed in the
/// seed text, only its contract): the ball centre as a ray against the infinite cylinder of radius
/// `R + r` (the offset-primitive trick). Returns the distance along the unit direction and the normal.
fn nehe_offset_cylinder(
    base: DVec3,
    axis: DVec3,
    radius: f64,
    position: DVec3,
    direction: DVec3,
) -> Option<(f64, DVec3)> {
    const ZERO: f64 = 1e-8;
    let rc = position - base;
    let n = direction.cross(axis);
    let ln = n.length();
    // `if ((ln < ZERO) && (ln > -ZERO))`.
    if ln.abs() < ZERO {
        return None; // Parallel to the axis: no intersection.
    }
    let n = n / ln;
    let d = rc.dot(n).abs();
    if d > radius {
        return None;
    }
    let o = rc.cross(axis);
    let t = -o.dot(n) / ln;
    let o = n.cross(axis).normalize();
    let s = ((radius * radius - d * d).sqrt() / direction.dot(o)).abs();
    let (in_, out) = (t - s, t + s);
    let lamda = if in_ < -ZERO {
        if out < -ZERO {
            return None;
        }
        out
    } else if out < -ZERO || in_ < out {
        in_
    } else {
        out
    };
    let hb = position + direction * lamda - base;
    let normal = (hb - axis * hb.dot(axis)).normalize();
    Some((lamda, normal))
}

/// The seed's use of it: unit velocity, `rt4 = rt * RestTime / rt2` as a fraction of this step's motion.
fn nehe_sphere_cylinder(
    center: Vec3,
    r: f32,
    motion: Vec3,
    cyl: &Cylinder,
) -> Option<(f64, DVec3)> {
    let m = motion.as_dvec3();
    let axis = (cyl.b - cyl.a).as_dvec3().normalize();
    let (lamda, normal) = nehe_offset_cylinder(
        cyl.a.as_dvec3(),
        axis,
        f64::from(cyl.radius + r),
        center.as_dvec3(),
        m.normalize(),
    )?;
    let fraction = lamda / m.length();
    (fraction <= 1.0).then_some((fraction, normal))
}

#[test]
fn nehe_offset_cylinder_wrong_at_rims_and_caps() {
    // Upright cylinder radius 1 from y = 0 to y = 2; ball radius 0.5; the seed tests the ball centre against
    // the infinite cylinder of radius 1.5.
    let cyl = Cylinder::new(Vec3::ZERO, Vec3::new(0.0, 2.0, 0.0), 1.0);

    // (1) Rim. Centre path y = 2.3 (0.3 above the top), from x = -5 moving +10.
    // Seed: x = -1.5 at t = 3.5 / 10 = 0.35, normal -x.
    let (t_seed, n_seed) = nehe_sphere_cylinder(
        Vec3::new(-5.0, 2.3, 0.0),
        0.5,
        Vec3::new(10.0, 0.0, 0.0),
        &cyl,
    )
    .unwrap();
    assert!((t_seed - 0.35).abs() < 1e-9);
    assert!((n_seed - DVec3::NEG_X).length() < 1e-9);
    // Truth: the ball meets the rim point (-1, 2, 0) when (x + 1)^2 + 0.3^2 = 0.5^2, x = -1.4: t = 0.36,
    // normal ((-1.4, 2.3) - (-1, 2)) / 0.5 = (-0.8, 0.6, 0), contact point (-1, 2, 0).
    let toi = sweep::sphere_cylinder(
        &Sphere::new(Vec3::new(-5.0, 2.3, 0.0), 0.5),
        Vec3::new(10.0, 0.0, 0.0),
        &cyl,
    )
    .unwrap();
    assert!(close(toi.t, 0.36, 1e-4), "{}", toi.t);
    assert!(close3(toi.normal, Vec3::new(-0.8, 0.6, 0.0), 1e-3));
    assert!(close3(toi.point, Vec3::new(-1.0, 2.0, 0.0), 1e-3));

    // (2) Passing above: centre path y = 2.6, 0.6 > 0.5 above the top. The seed still "hits" at t = 0.35.
    assert!(
        nehe_sphere_cylinder(
            Vec3::new(-5.0, 2.6, 0.0),
            0.5,
            Vec3::new(10.0, 0.0, 0.0),
            &cyl
        )
        .is_some()
    );
    assert_eq!(
        sweep::sphere_cylinder(
            &Sphere::new(Vec3::new(-5.0, 2.6, 0.0), 0.5),
            Vec3::new(10.0, 0.0, 0.0),
            &cyl
        ),
        None
    );

    // (3) Cap. Dropping along the axis from y = 5 by 10: parallel to the axis, the seed never hits.
    assert!(
        nehe_sphere_cylinder(
            Vec3::new(0.0, 5.0, 0.0),
            0.5,
            Vec3::new(0.0, -10.0, 0.0),
            &cyl
        )
        .is_none()
    );
    // Truth: the ball's bottom meets the cap y = 2 when the centre is at y = 2.5: t = 2.5 / 10 = 0.25,
    // normal +y, point (0, 2, 0).
    let toi = sweep::sphere_cylinder(
        &Sphere::new(Vec3::new(0.0, 5.0, 0.0), 0.5),
        Vec3::new(0.0, -10.0, 0.0),
        &cyl,
    )
    .unwrap();
    assert!(close(toi.t, 0.25, 1e-5), "{}", toi.t);
    assert!(close3(toi.normal, Vec3::Y, 1e-5));
    assert!(close3(toi.point, Vec3::new(0.0, 2.0, 0.0), 1e-4));

    // Control: at mid height the offset trick is exact: x = -1.5 at t = 0.35, normal -x, point (-1, 1, 0).
    let toi = sweep::sphere_cylinder(
        &Sphere::new(Vec3::new(-5.0, 1.0, 0.0), 0.5),
        Vec3::new(10.0, 0.0, 0.0),
        &cyl,
    )
    .unwrap();
    let (t_seed, _) = nehe_sphere_cylinder(
        Vec3::new(-5.0, 1.0, 0.0),
        0.5,
        Vec3::new(10.0, 0.0, 0.0),
        &cyl,
    )
    .unwrap();
    assert!(close(toi.t, 0.35, 1e-5) && (t_seed - 0.35).abs() < 1e-9);
    assert!(close3(toi.point, Vec3::new(-1.0, 1.0, 0.0), 1e-4));
}
