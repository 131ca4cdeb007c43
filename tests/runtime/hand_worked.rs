//! Hand-worked cases for every public function of the API contract's Shapes, overlap, ray, segment,
//! triangle, closest, sat, sweep and walls sections. Each expected value is worked out on paper in the
//! comment above it; the conventions are ARCHITECTURE.md's "Query conventions" (touching counts, inside
//! origin hits at t = 0 facing back, two-sided planes and triangles, Toi normal from obstacle to mover).
#![allow(clippy::unwrap_used)]

use collidoscope::glam::{Mat3, Vec2, Vec3};
use collidoscope::query::{Cull, closest, overlap, ray, sat, segment, sweep, triangle};
use collidoscope::shape::{
    Aabb, Cylinder, Interval, Obb, Plane, Ray, Segment, Sphere, Triangle, Wall,
};
use collidoscope::walls;

fn close(a: f32, b: f32, tol: f32) -> bool {
    (a - b).abs() <= tol
}

#[track_caller]
fn assert_close(a: f32, b: f32, tol: f32) {
    assert!(close(a, b, tol), "{a} != {b} (tol {tol})");
}

#[track_caller]
fn assert_close3(a: Vec3, b: Vec3, tol: f32) {
    assert!((a - b).abs().max_element() <= tol, "{a} != {b} (tol {tol})");
}

#[track_caller]
fn assert_close2(a: Vec2, b: Vec2, tol: f32) {
    assert!((a - b).abs().max_element() <= tol, "{a} != {b} (tol {tol})");
}

/// An exact quarter turn about z: local x is world +y, local y is world -x, local z is world z.
fn quarter_z() -> Mat3 {
    Mat3::from_cols(Vec3::Y, -Vec3::X, Vec3::Z)
}

/// Half extents (2, 1, 1) turned a quarter about z: the world box is x in [-1, 1], y in [-2, 2],
/// z in [-1, 1] about `center` (a box that an unrotated reading would place differently).
fn tall_box(center: Vec3) -> Obb {
    Obb::new(center, Vec3::new(2.0, 1.0, 1.0), quarter_z())
}

// ============================================================ Shapes

#[test]
fn shape_constructors_take_fields_in_order() {
    let (p, q, r) = (
        Vec3::new(1.0, 2.0, 3.0),
        Vec3::new(4.0, 5.0, 6.0),
        Vec3::new(7.0, 8.0, 9.0),
    );
    assert_eq!(Ray::new(p, q), Ray { origin: p, dir: q });
    assert_eq!(Segment::new(p, q), Segment { a: p, b: q });
    assert_eq!(
        Sphere::new(p, 2.5),
        Sphere {
            center: p,
            radius: 2.5
        }
    );
    assert_eq!(Aabb::new(p, q), Aabb { min: p, max: q });
    let rot = quarter_z();
    assert_eq!(
        Obb::new(p, q, rot),
        Obb {
            center: p,
            half_extents: q,
            rotation: rot
        }
    );
    assert_eq!(
        Plane::new(Vec3::Y, 2.0),
        Plane {
            normal: Vec3::Y,
            d: 2.0
        }
    );
    assert_eq!(Triangle::new(p, q, r), Triangle { a: p, b: q, c: r });
    assert_eq!(
        Cylinder::new(p, q, 0.5),
        Cylinder {
            a: p,
            b: q,
            radius: 0.5
        }
    );
    let (u, v) = (Vec2::new(1.0, 2.0), Vec2::new(3.0, 4.0));
    assert_eq!(
        Wall::new(u, v, 0.5),
        Wall {
            a: u,
            b: v,
            radius: 0.5
        }
    );
    assert_eq!(Interval::new(1.0, 3.0), Interval { min: 1.0, max: 3.0 });
}

#[test]
fn plane_from_triangle() {
    // (0,0,3), (1,0,3), (0,1,3): (b - a) x (c - a) = (1,0,0) x (0,1,0) = (0,0,1); d = n . a = 3.
    let t = Triangle::new(
        Vec3::new(0.0, 0.0, 3.0),
        Vec3::new(1.0, 0.0, 3.0),
        Vec3::new(0.0, 1.0, 3.0),
    );
    assert_eq!(Plane::from_triangle(&t), Plane::new(Vec3::Z, 3.0));
    // Reversed winding: the front face is -z, so n = (0,0,-1) and d = n . a = -3 (the same set z = 3).
    let rev = Triangle::new(t.a, t.c, t.b);
    assert_eq!(Plane::from_triangle(&rev), Plane::new(-Vec3::Z, -3.0));
    // (1,0,0), (0,1,0), (0,0,1): (-1,1,0) x (-1,0,1) = (1*1 - 0*0, 0*(-1) - (-1)*1, (-1)*0 - 1*(-1))
    // = (1, 1, 1); unit n = (1,1,1)/sqrt(3); d = n . a = 1/sqrt(3) = 0.57735.
    let diag = Triangle::new(Vec3::X, Vec3::Y, Vec3::Z);
    let p = Plane::from_triangle(&diag);
    let inv = 1.0 / 3f32.sqrt();
    assert_close3(p.normal, Vec3::splat(inv), 1e-6);
    assert_close(p.d, inv, 1e-6);
    // Every vertex satisfies n . x = d.
    for v in diag.vertices() {
        assert_close(p.normal.dot(v), p.d, 1e-6);
    }
}

#[test]
fn interval_empty_when_min_above_max() {
    // [1, 3] holds 1..=3; [2, 2] is the single point 2; [3, 1] is empty.
    let i = Interval::new(1.0, 3.0);
    assert!(i.min <= i.max && !i.is_empty());
    assert!(!Interval::new(2.0, 2.0).is_empty());
    assert!(Interval::new(3.0, 1.0).is_empty());
}

// ============================================================ Overlap (15)

#[test]
fn overlap_sphere_sphere() {
    let a = Sphere::new(Vec3::ZERO, 1.0);
    // Centres 3 apart, radii 1 + 2 = 3: touching.
    assert!(overlap::sphere_sphere(
        &a,
        &Sphere::new(Vec3::new(3.0, 0.0, 0.0), 2.0)
    ));
    // Centres (3,4,0): distance 5; radii 1 + 4 = 5 touching, 1 + 3.9 = 4.9 apart.
    assert!(overlap::sphere_sphere(
        &a,
        &Sphere::new(Vec3::new(3.0, 4.0, 0.0), 4.0)
    ));
    assert!(!overlap::sphere_sphere(
        &a,
        &Sphere::new(Vec3::new(3.0, 4.0, 0.0), 3.9)
    ));
    // One inside the other.
    assert!(overlap::sphere_sphere(
        &Sphere::new(Vec3::ZERO, 5.0),
        &Sphere::new(Vec3::new(1.0, 0.0, 0.0), 0.5)
    ));
}

#[test]
fn overlap_sphere_aabb() {
    let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
    // Centre (2, .5, .5): closest box point (1, .5, .5), distance 1.
    let c = Vec3::new(2.0, 0.5, 0.5);
    assert!(overlap::sphere_aabb(&Sphere::new(c, 1.0), &b));
    assert!(!overlap::sphere_aabb(&Sphere::new(c, 0.99), &b));
    // Centre (2, 2, 0.5): closest (1, 1, 0.5), distance sqrt(2) = 1.414.
    let c = Vec3::new(2.0, 2.0, 0.5);
    assert!(overlap::sphere_aabb(&Sphere::new(c, 1.42), &b));
    assert!(!overlap::sphere_aabb(&Sphere::new(c, 1.41), &b));
    // A small sphere wholly inside the solid box.
    assert!(overlap::sphere_aabb(
        &Sphere::new(Vec3::splat(0.5), 0.1),
        &b
    ));
}

#[test]
fn overlap_sphere_obb() {
    // tall_box: x in [-1, 1], y in [-2, 2], z in [-1, 1].
    let b = tall_box(Vec3::ZERO);
    // Centre (0, 3, 0): closest (0, 2, 0), distance 1: touching at radius 1.
    assert!(overlap::sphere_obb(
        &Sphere::new(Vec3::new(0.0, 3.0, 0.0), 1.0),
        &b
    ));
    assert!(!overlap::sphere_obb(
        &Sphere::new(Vec3::new(0.0, 3.0, 0.0), 0.99),
        &b
    ));
    // Centre (2.5, 0, 0): closest (1, 0, 0), distance 1.5 > 1 (unrotated, the box would reach x = 2).
    assert!(!overlap::sphere_obb(
        &Sphere::new(Vec3::new(2.5, 0.0, 0.0), 1.0),
        &b
    ));
    assert!(overlap::sphere_obb(
        &Sphere::new(Vec3::new(2.5, 0.0, 0.0), 1.5),
        &b
    ));
}

#[test]
fn overlap_sphere_plane() {
    let p = Plane::new(Vec3::Y, 2.0); // y = 2
    // Centre y = 5: signed distance 3; radius 3 touches, 2.9 does not.
    assert!(overlap::sphere_plane(
        &Sphere::new(Vec3::new(0.0, 5.0, 0.0), 3.0),
        &p
    ));
    assert!(!overlap::sphere_plane(
        &Sphere::new(Vec3::new(0.0, 5.0, 0.0), 2.9),
        &p
    ));
    // From the other side: centre y = -1, distance -3: touching at radius 3.
    assert!(overlap::sphere_plane(
        &Sphere::new(Vec3::new(0.0, -1.0, 0.0), 3.0),
        &p
    ));
    // The plane is a surface, not a half-space: far below it is apart.
    assert!(!overlap::sphere_plane(
        &Sphere::new(Vec3::new(0.0, -10.0, 0.0), 1.0),
        &p
    ));
    // Non-unit normal: 2y = 4 is the same plane y = 2.
    let q = Plane::new(Vec3::new(0.0, 2.0, 0.0), 4.0);
    assert!(overlap::sphere_plane(
        &Sphere::new(Vec3::new(0.0, 5.0, 0.0), 3.0),
        &q
    ));
    assert!(!overlap::sphere_plane(
        &Sphere::new(Vec3::new(0.0, 5.0, 0.0), 2.9),
        &q
    ));
}

#[test]
fn overlap_sphere_triangle() {
    let t = Triangle::new(
        Vec3::ZERO,
        Vec3::new(4.0, 0.0, 0.0),
        Vec3::new(0.0, 4.0, 0.0),
    );
    // Centre (1, 1, 2) above the interior: closest (1, 1, 0), distance 2.
    let c = Vec3::new(1.0, 1.0, 2.0);
    assert!(overlap::sphere_triangle(&Sphere::new(c, 2.0), &t));
    assert!(!overlap::sphere_triangle(&Sphere::new(c, 1.99), &t));
    // Centre (5, -1, 0) in vertex b's region: closest (4, 0, 0), distance sqrt(2) = 1.414.
    let c = Vec3::new(5.0, -1.0, 0.0);
    assert!(overlap::sphere_triangle(&Sphere::new(c, 1.5), &t));
    assert!(!overlap::sphere_triangle(&Sphere::new(c, 1.4), &t));
    // Centre (3, 3, 0) beyond the hypotenuse x + y = 4: closest (2, 2, 0), distance sqrt(2).
    let c = Vec3::new(3.0, 3.0, 0.0);
    assert!(overlap::sphere_triangle(&Sphere::new(c, 1.5), &t));
    assert!(!overlap::sphere_triangle(&Sphere::new(c, 1.4), &t));
}

#[test]
fn overlap_aabb_aabb() {
    let a = Aabb::new(Vec3::ZERO, Vec3::ONE);
    // Shared face x = 1.
    assert!(overlap::aabb_aabb(
        &a,
        &Aabb::new(Vec3::new(1.0, 0.0, 0.0), Vec3::new(2.0, 1.0, 1.0))
    ));
    // Gap 0.001 on x.
    assert!(!overlap::aabb_aabb(
        &a,
        &Aabb::new(Vec3::new(1.001, 0.0, 0.0), Vec3::new(2.0, 1.0, 1.0))
    ));
    // Sharing only the corner (1, 1, 1).
    assert!(overlap::aabb_aabb(
        &a,
        &Aabb::new(Vec3::ONE, Vec3::splat(2.0))
    ));
    // Containment.
    assert!(overlap::aabb_aabb(
        &a,
        &Aabb::new(Vec3::splat(0.25), Vec3::splat(0.75))
    ));
    // Overlapping on x and y but not z.
    assert!(!overlap::aabb_aabb(
        &a,
        &Aabb::new(Vec3::new(0.5, 0.5, 2.0), Vec3::new(1.5, 1.5, 3.0))
    ));
}

#[test]
fn overlap_aabb_obb() {
    let a = Aabb::new(Vec3::splat(-1.0), Vec3::splat(1.0));
    // Unit cube turned 45 degrees about z: its corner reaches sqrt(2) = 1.41421 from its centre along x.
    // Centre x = 2.4: corner at 0.9858 < 1, overlap. Centre 2.45: corner at 1.0358 > 1, apart.
    let rot = Mat3::from_rotation_z(std::f32::consts::FRAC_PI_4);
    assert!(overlap::aabb_obb(
        &a,
        &Obb::new(Vec3::new(2.4, 0.0, 0.0), Vec3::ONE, rot)
    ));
    assert!(!overlap::aabb_obb(
        &a,
        &Obb::new(Vec3::new(2.45, 0.0, 0.0), Vec3::ONE, rot)
    ));
    // tall_box at (2, 0, 0) spans x in [1, 3]: shares the face x = 1 (touching). At x = 2.01 it is apart.
    assert!(overlap::aabb_obb(&a, &tall_box(Vec3::new(2.0, 0.0, 0.0))));
    assert!(!overlap::aabb_obb(&a, &tall_box(Vec3::new(2.01, 0.0, 0.0))));
    // ... but along y it reaches 2 from its centre: at (0, 3, 0) it spans y in [1, 5]: touching.
    assert!(overlap::aabb_obb(&a, &tall_box(Vec3::new(0.0, 3.0, 0.0))));
}

#[test]
fn overlap_aabb_plane() {
    let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
    // x + y + z = 3 (non-unit normal (1,1,1), d = 3) touches the corner (1, 1, 1); = 3.01 misses it.
    assert!(overlap::aabb_plane(&b, &Plane::new(Vec3::ONE, 3.0)));
    assert!(!overlap::aabb_plane(&b, &Plane::new(Vec3::ONE, 3.01)));
    // The unit-normal form of the same plane: d = 3 / sqrt(3) = sqrt(3).
    assert!(overlap::aabb_plane(
        &b,
        &Plane::new(Vec3::ONE.normalize(), 3f32.sqrt() * 0.999)
    ));
    // y = 0.5 cuts through it; y = 0 touches its bottom face; y = -0.01 misses.
    assert!(overlap::aabb_plane(&b, &Plane::new(Vec3::Y, 0.5)));
    assert!(overlap::aabb_plane(&b, &Plane::new(Vec3::Y, 0.0)));
    assert!(!overlap::aabb_plane(&b, &Plane::new(Vec3::Y, -0.01)));
}

#[test]
fn overlap_aabb_triangle() {
    let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
    // Lying on the top face z = 1: touching. Lifted to z = 1.01: apart.
    let on_top = |z: f32| {
        Triangle::new(
            Vec3::new(0.0, 0.0, z),
            Vec3::new(1.0, 0.0, z),
            Vec3::new(0.0, 1.0, z),
        )
    };
    assert!(overlap::aabb_triangle(&b, &on_top(1.0)));
    assert!(!overlap::aabb_triangle(&b, &on_top(1.01)));
    // A large triangle in z = 0.5 whose vertices are all outside the box but whose face cuts it.
    let big = Triangle::new(
        Vec3::new(-5.0, -5.0, 0.5),
        Vec3::new(5.0, -5.0, 0.5),
        Vec3::new(0.0, 5.0, 0.5),
    );
    assert!(overlap::aabb_triangle(&b, &big));
    // A vertical triangle in the plane x + y = s: the box's nearest points have x + y = 2 (the edge
    // x = y = 1). s = 2 touches that edge; s = 2.5 is separated by the triangle's normal (1, 1, 0).
    let slanted = |s: f32| {
        Triangle::new(
            Vec3::new(s, 0.0, -1.0),
            Vec3::new(0.0, s, -1.0),
            Vec3::new(s / 2.0, s / 2.0, 3.0),
        )
    };
    assert!(overlap::aabb_triangle(&b, &slanted(2.0)));
    assert!(!overlap::aabb_triangle(&b, &slanted(2.5)));
}

#[test]
fn overlap_obb_obb() {
    let a = Obb::new(Vec3::ZERO, Vec3::ONE, Mat3::IDENTITY);
    let rot = Mat3::from_rotation_z(std::f32::consts::FRAC_PI_4);
    // Same numbers as aabb_obb: corner at 2.4 - 1.414 = 0.986 overlaps; 2.45 - 1.414 = 1.036 does not.
    assert!(overlap::obb_obb(
        &a,
        &Obb::new(Vec3::new(2.4, 0.0, 0.0), Vec3::ONE, rot)
    ));
    assert!(!overlap::obb_obb(
        &a,
        &Obb::new(Vec3::new(2.45, 0.0, 0.0), Vec3::ONE, rot)
    ));
    // Face to face: tall_box at (2, 0, 0) spans x in [1, 3]: touching; at 2.01 apart.
    assert!(overlap::obb_obb(&a, &tall_box(Vec3::new(2.0, 0.0, 0.0))));
    assert!(!overlap::obb_obb(&a, &tall_box(Vec3::new(2.01, 0.0, 0.0))));
    // Edge to edge (see seed_defects for the arithmetic): a 45 degrees about z, b 45 degrees about y at
    // x = 2 sqrt(2) +- 0.1: the edges are 0.1 apart, or cross by 0.1.
    let a45 = Obb::new(Vec3::ZERO, Vec3::ONE, rot);
    let b_at = |c: f32| {
        Obb::new(
            Vec3::new(c, 0.0, 0.0),
            Vec3::ONE,
            Mat3::from_rotation_y(std::f32::consts::FRAC_PI_4),
        )
    };
    let s2 = 2f32.sqrt();
    assert!(!overlap::obb_obb(&a45, &b_at(2.0 * s2 + 0.1)));
    assert!(overlap::obb_obb(&a45, &b_at(2.0 * s2 - 0.1)));
    // Symmetric in its arguments.
    assert!(!overlap::obb_obb(&b_at(2.0 * s2 + 0.1), &a45));
}

#[test]
fn overlap_obb_plane() {
    // tall_box about the origin reaches y = +-2 and x = +-1.
    let b = tall_box(Vec3::ZERO);
    assert!(overlap::obb_plane(&b, &Plane::new(Vec3::Y, 2.0)));
    assert!(!overlap::obb_plane(&b, &Plane::new(Vec3::Y, 2.01)));
    assert!(overlap::obb_plane(&b, &Plane::new(Vec3::X, -1.0)));
    assert!(!overlap::obb_plane(&b, &Plane::new(Vec3::X, 1.5)));
    // Unit cube turned 45 degrees about z reaches y = sqrt(2) = 1.41421.
    let c = Obb::new(
        Vec3::ZERO,
        Vec3::ONE,
        Mat3::from_rotation_z(std::f32::consts::FRAC_PI_4),
    );
    assert!(overlap::obb_plane(&c, &Plane::new(Vec3::Y, 1.41)));
    assert!(!overlap::obb_plane(&c, &Plane::new(Vec3::Y, 1.42)));
}

#[test]
fn overlap_obb_triangle() {
    let b = tall_box(Vec3::ZERO);
    // A triangle in the plane y = h spanning x, z in [-1, 1]: touches the top face at h = 2.
    let at_y = |h: f32| {
        Triangle::new(
            Vec3::new(-1.0, h, -1.0),
            Vec3::new(1.0, h, -1.0),
            Vec3::new(0.0, h, 1.0),
        )
    };
    assert!(overlap::obb_triangle(&b, &at_y(2.0)));
    assert!(!overlap::obb_triangle(&b, &at_y(2.01)));
    assert!(overlap::obb_triangle(&b, &at_y(0.0)));
    // A wall in the plane x = 1.5: the box reaches only x = 1 (unrotated it would reach 2).
    let wall = Triangle::new(
        Vec3::new(1.5, -5.0, -5.0),
        Vec3::new(1.5, 5.0, -5.0),
        Vec3::new(1.5, 0.0, 5.0),
    );
    assert!(!overlap::obb_triangle(&b, &wall));
}

#[test]
fn overlap_plane_plane() {
    let y0 = Plane::new(Vec3::Y, 0.0);
    // y = 0 and x = 5 cross.
    assert!(overlap::plane_plane(&y0, &Plane::new(Vec3::X, 5.0)));
    // y = 0 and y = 1: parallel and apart.
    assert!(!overlap::plane_plane(&y0, &Plane::new(Vec3::Y, 1.0)));
    // y = 1 and -y = -1: the same plane.
    assert!(overlap::plane_plane(
        &Plane::new(Vec3::Y, 1.0),
        &Plane::new(-Vec3::Y, -1.0)
    ));
    // Non-unit normals: 2y = 0 is y = 0 (same plane), 2y = 2 is y = 1 (parallel, apart).
    assert!(overlap::plane_plane(
        &y0,
        &Plane::new(Vec3::new(0.0, 2.0, 0.0), 0.0)
    ));
    assert!(!overlap::plane_plane(
        &y0,
        &Plane::new(Vec3::new(0.0, 2.0, 0.0), 2.0)
    ));
}

#[test]
fn overlap_triangle_plane() {
    // Vertices at y = -1, 1, 1.
    let t = Triangle::new(
        Vec3::new(0.0, -1.0, 0.0),
        Vec3::new(1.0, 1.0, 0.0),
        Vec3::new(0.0, 1.0, 1.0),
    );
    assert!(overlap::triangle_plane(&t, &Plane::new(Vec3::Y, 0.5)));
    assert!(overlap::triangle_plane(&t, &Plane::new(Vec3::Y, 1.0))); // touches the top edge
    assert!(overlap::triangle_plane(&t, &Plane::new(Vec3::Y, -1.0))); // touches the bottom vertex
    assert!(!overlap::triangle_plane(&t, &Plane::new(Vec3::Y, 1.5)));
    assert!(!overlap::triangle_plane(&t, &Plane::new(Vec3::Y, -1.01)));
}

#[test]
fn overlap_triangle_triangle() {
    let flat = Triangle::new(
        Vec3::new(-1.0, 0.0, -1.0),
        Vec3::new(1.0, 0.0, -1.0),
        Vec3::new(0.0, 0.0, 1.0),
    );
    // A vertical triangle in x = 0 from y = -1 to y = 1 pierces it; lifted to start at y = 0.5 it does not.
    let pierce = Triangle::new(
        Vec3::new(0.0, -1.0, 0.0),
        Vec3::new(0.0, 1.0, 0.5),
        Vec3::new(0.0, 1.0, -0.5),
    );
    assert!(overlap::triangle_triangle(&flat, &pierce));
    let lifted = Triangle::new(
        Vec3::new(0.0, 0.5, 0.0),
        Vec3::new(0.0, 1.0, 0.5),
        Vec3::new(0.0, 1.0, -0.5),
    );
    assert!(!overlap::triangle_triangle(&flat, &lifted));
    // Standing on it: lowest vertex at y = 0, at (0, 0, 0) which is inside flat: touching.
    let standing = Triangle::new(
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(0.0, 1.0, 0.5),
        Vec3::new(0.0, 1.0, -0.5),
    );
    assert!(overlap::triangle_triangle(&flat, &standing));
    // Coplanar: shifted by 3 along x the copies are apart (all edge cross products are parallel to the
    // shared normal, so only the in-plane edge normals can separate them); shifted by 0.5 they overlap;
    // shifted by 2 they share the vertex (1, 0, -1).
    let shifted = |dx: f32| {
        let d = Vec3::new(dx, 0.0, 0.0);
        Triangle::new(flat.a + d, flat.b + d, flat.c + d)
    };
    assert!(!overlap::triangle_triangle(&flat, &shifted(3.0)));
    assert!(overlap::triangle_triangle(&flat, &shifted(0.5)));
    assert!(overlap::triangle_triangle(&flat, &shifted(2.0)));
}

// ============================================================ Ray casts (6 + slabs)

#[test]
fn ray_sphere_cases() {
    let s = Sphere::new(Vec3::new(0.0, 0.0, 10.0), 2.0);
    // dir (0, 0, 2): the near surface z = 8 is at t = 8 / 2 = 4, normal -z.
    let r = Ray::new(Vec3::ZERO, Vec3::new(0.0, 0.0, 2.0));
    let h = ray::ray_sphere(&r, &s, f32::INFINITY).unwrap();
    assert_eq!(
        (h.t, h.point, h.normal),
        (4.0, Vec3::new(0.0, 0.0, 8.0), -Vec3::Z)
    );
    // max_t: exactly 4 counts, 3.9 does not.
    assert!(ray::ray_sphere(&r, &s, 4.0).is_some());
    assert!(ray::ray_sphere(&r, &s, 3.9).is_none());
    // Grazing: the line x = 2 touches the sphere at (2, 0, 10), t = 10, normal +x.
    let h = ray::ray_sphere(&Ray::new(Vec3::new(2.0, 0.0, 0.0), Vec3::Z), &s, 100.0).unwrap();
    assert_close(h.t, 10.0, 1e-4);
    assert_close3(h.point, Vec3::new(2.0, 0.0, 10.0), 1e-4);
    assert_close3(h.normal, Vec3::X, 1e-4);
    // Slanted: from (0, -3, 6) with dir (0, 3, 4) (length 5) the ray passes the centre (0, 0, 10) at t = 1,
    // so it enters 2 units = 2/5 of t earlier: t = 0.6, at (0, -1.2, 8.4), normal (0, -1.2, -1.6)/2.
    let h = ray::ray_sphere(
        &Ray::new(Vec3::new(0.0, -3.0, 6.0), Vec3::new(0.0, 3.0, 4.0)),
        &s,
        10.0,
    )
    .unwrap();
    assert_close(h.t, 0.6, 1e-6);
    assert_close3(h.point, Vec3::new(0.0, -1.2, 8.4), 1e-5);
    assert_close3(h.normal, Vec3::new(0.0, -0.6, -0.8), 1e-5);
    // Inside: t = 0, normal = -dir.normalize().
    let h = ray::ray_sphere(&Ray::new(s.center, Vec3::new(3.0, 0.0, 0.0)), &s, 1.0).unwrap();
    assert_eq!((h.t, h.point, h.normal), (0.0, s.center, -Vec3::X));
    // Behind the origin: miss. Beside it: miss.
    assert!(ray::ray_sphere(&Ray::new(Vec3::new(0.0, 0.0, 20.0), Vec3::Z), &s, 100.0).is_none());
    assert!(ray::ray_sphere(&Ray::new(Vec3::new(2.1, 0.0, 0.0), Vec3::Z), &s, 100.0).is_none());
}

#[test]
fn ray_aabb_cases() {
    let b = Aabb::new(Vec3::new(2.0, -1.0, -1.0), Vec3::new(4.0, 1.0, 1.0));
    // Along +x: enters x = 2 at t = 2, normal -x.
    let h = ray::ray_aabb(&Ray::new(Vec3::ZERO, Vec3::X), &b, 10.0).unwrap();
    assert_eq!(
        (h.t, h.point, h.normal),
        (2.0, Vec3::new(2.0, 0.0, 0.0), -Vec3::X)
    );
    // dir (0.5, 0, 0): t = 2 / 0.5 = 4.
    let h = ray::ray_aabb(&Ray::new(Vec3::ZERO, Vec3::new(0.5, 0.0, 0.0)), &b, 10.0).unwrap();
    assert_eq!(h.t, 4.0);
    // From +x going back: enters x = 4 from (6, 0, 0) at t = 2, normal +x.
    let h = ray::ray_aabb(&Ray::new(Vec3::new(6.0, 0.0, 0.0), -Vec3::X), &b, 10.0).unwrap();
    assert_eq!((h.t, h.normal), (2.0, Vec3::X));
    // Down onto the top face y = 1 from (3, 5, 0): t = 4, normal +y.
    let h = ray::ray_aabb(&Ray::new(Vec3::new(3.0, 5.0, 0.0), -Vec3::Y), &b, 10.0).unwrap();
    assert_eq!(
        (h.t, h.point, h.normal),
        (4.0, Vec3::new(3.0, 1.0, 0.0), Vec3::Y)
    );
    // Grazing the edge x = 2, y = 1, z = 1 from (0, 1, 1) along +x: touching, t = 2.
    let h = ray::ray_aabb(&Ray::new(Vec3::new(0.0, 1.0, 1.0), Vec3::X), &b, 10.0).unwrap();
    assert_eq!(h.t, 2.0);
    // Inside at (3, 0, 0): t = 0, normal -dir.
    let h = ray::ray_aabb(
        &Ray::new(Vec3::new(3.0, 0.0, 0.0), Vec3::new(0.0, -2.0, 0.0)),
        &b,
        1.0,
    )
    .unwrap();
    assert_eq!((h.t, h.normal), (0.0, Vec3::Y));
    // Misses: along +y from the origin; beyond max_t; behind.
    assert!(ray::ray_aabb(&Ray::new(Vec3::ZERO, Vec3::Y), &b, 10.0).is_none());
    assert!(ray::ray_aabb(&Ray::new(Vec3::ZERO, Vec3::X), &b, 1.9).is_none());
    assert!(ray::ray_aabb(&Ray::new(Vec3::new(5.0, 0.0, 0.0), Vec3::X), &b, 10.0).is_none());
}

#[test]
fn ray_obb_cases() {
    // tall_box at (10, 0, 0): x in [9, 11], y in [-2, 2], z in [-1, 1].
    let b = tall_box(Vec3::new(10.0, 0.0, 0.0));
    // Along +x at y = 1.5: enters x = 9 at t = 9 (an unrotated reading, x in [8, 12], y in [-1, 1], would
    // miss). The entered face is local +y, whose world normal is R (0, 1, 0) = -x.
    let h = ray::ray_obb(&Ray::new(Vec3::new(0.0, 1.5, 0.0), Vec3::X), &b, 100.0).unwrap();
    assert_close(h.t, 9.0, 1e-6);
    assert_close3(h.point, Vec3::new(9.0, 1.5, 0.0), 1e-6);
    assert_close3(h.normal, -Vec3::X, 1e-6);
    // Down from (10, 5, 0): the top y = 2 at t = 3, normal +y.
    let h = ray::ray_obb(&Ray::new(Vec3::new(10.0, 5.0, 0.0), -Vec3::Y), &b, 100.0).unwrap();
    assert_close(h.t, 3.0, 1e-6);
    assert_close3(h.normal, Vec3::Y, 1e-6);
    // Inside: t = 0, normal -dir.normalize().
    let h = ray::ray_obb(
        &Ray::new(Vec3::new(10.0, 0.0, 0.0), Vec3::new(0.0, 0.0, 4.0)),
        &b,
        1.0,
    )
    .unwrap();
    assert_eq!(h.t, 0.0);
    assert_close3(h.normal, -Vec3::Z, 1e-6);
    // Along +x at y = 2.5: misses.
    assert!(ray::ray_obb(&Ray::new(Vec3::new(0.0, 2.5, 0.0), Vec3::X), &b, 100.0).is_none());
}

#[test]
fn ray_plane_cases() {
    let p = Plane::new(Vec3::Y, 2.0); // y = 2
    // From y = 5 with dir (0, -1.5, 0): t = 3 / 1.5 = 2, normal +y (against dir).
    let h = ray::ray_plane(
        &Ray::new(Vec3::new(0.0, 5.0, 0.0), Vec3::new(0.0, -1.5, 0.0)),
        &p,
        10.0,
    )
    .unwrap();
    assert_eq!(
        (h.t, h.point, h.normal),
        (2.0, Vec3::new(0.0, 2.0, 0.0), Vec3::Y)
    );
    // From below (y = 0) going up: t = 2, normal flipped to -y.
    let h = ray::ray_plane(&Ray::new(Vec3::ZERO, Vec3::Y), &p, 10.0).unwrap();
    assert_eq!((h.t, h.normal), (2.0, -Vec3::Y));
    // Slanted: from (0, 5, 0) along (3, -4, 0): y = 2 when 5 - 4t = 2, t = 0.75, at (2.25, 2, 0).
    let h = ray::ray_plane(
        &Ray::new(Vec3::new(0.0, 5.0, 0.0), Vec3::new(3.0, -4.0, 0.0)),
        &p,
        10.0,
    )
    .unwrap();
    assert_eq!((h.t, h.point), (0.75, Vec3::new(2.25, 2.0, 0.0)));
    // Starting on the plane: t = 0.
    let h = ray::ray_plane(&Ray::new(Vec3::new(1.0, 2.0, 3.0), Vec3::Y), &p, 10.0).unwrap();
    assert_eq!((h.t, h.point), (0.0, Vec3::new(1.0, 2.0, 3.0)));
    // Parallel and off it, heading away, beyond max_t: misses.
    assert!(ray::ray_plane(&Ray::new(Vec3::ZERO, Vec3::X), &p, 10.0).is_none());
    assert!(ray::ray_plane(&Ray::new(Vec3::new(0.0, 5.0, 0.0), Vec3::Y), &p, 10.0).is_none());
    assert!(ray::ray_plane(&Ray::new(Vec3::ZERO, Vec3::Y), &p, 1.9).is_none());
    // Non-unit normal: 2y = 4 is y = 2; same t, unit normal.
    let q = Plane::new(Vec3::new(0.0, 2.0, 0.0), 4.0);
    let h = ray::ray_plane(&Ray::new(Vec3::new(0.0, 5.0, 0.0), -Vec3::Y), &q, 10.0).unwrap();
    assert_eq!((h.t, h.normal), (3.0, Vec3::Y));
}

#[test]
fn ray_cylinder_cases() {
    // Axis (0,0,0) to (0,4,0), radius 1.
    let c = Cylinder::new(Vec3::ZERO, Vec3::new(0.0, 4.0, 0.0), 1.0);
    // Side: from (-5, 2, 0) along +x meets x = -1 at t = 4, normal -x.
    let h = ray::ray_cylinder(&Ray::new(Vec3::new(-5.0, 2.0, 0.0), Vec3::X), &c, 10.0).unwrap();
    assert_close(h.t, 4.0, 1e-6);
    assert_close3(h.point, Vec3::new(-1.0, 2.0, 0.0), 1e-6);
    assert_close3(h.normal, -Vec3::X, 1e-6);
    // Side off-centre: from (-5, 2, 0.6) along +x meets x = -sqrt(1 - 0.36) = -0.8 at t = 4.2,
    // normal (-0.8, 0, 0.6).
    let h = ray::ray_cylinder(&Ray::new(Vec3::new(-5.0, 2.0, 0.6), Vec3::X), &c, 10.0).unwrap();
    assert_close(h.t, 4.2, 1e-5);
    assert_close3(h.normal, Vec3::new(-0.8, 0.0, 0.6), 1e-5);
    // Cap: from (0, 10, 0) with dir (0, -2, 0): y = 4 at t = 3, normal +y.
    let h = ray::ray_cylinder(
        &Ray::new(Vec3::new(0.0, 10.0, 0.0), Vec3::new(0.0, -2.0, 0.0)),
        &c,
        10.0,
    )
    .unwrap();
    assert_close(h.t, 3.0, 1e-6);
    assert_close3(h.point, Vec3::new(0.0, 4.0, 0.0), 1e-6);
    assert_close3(h.normal, Vec3::Y, 1e-6);
    // Bottom cap from below: y = 0 from (0.5, -3, 0) going up: t = 3, normal -y.
    let h = ray::ray_cylinder(&Ray::new(Vec3::new(0.5, -3.0, 0.0), Vec3::Y), &c, 10.0).unwrap();
    assert_close(h.t, 3.0, 1e-6);
    assert_close3(h.normal, -Vec3::Y, 1e-6);
    // Along the cap's plane y = 4 from (-5, 4, 0): touches the rim at (-1, 4, 0), t = 4.
    let h = ray::ray_cylinder(&Ray::new(Vec3::new(-5.0, 4.0, 0.0), Vec3::X), &c, 10.0).unwrap();
    assert_close(h.t, 4.0, 1e-6);
    // Inside: t = 0, normal -dir.
    let h = ray::ray_cylinder(&Ray::new(Vec3::new(0.0, 2.0, 0.0), Vec3::X), &c, 10.0).unwrap();
    assert_eq!((h.t, h.normal), (0.0, -Vec3::X));
    // Above the top: miss; max_t short of the side: miss.
    assert!(ray::ray_cylinder(&Ray::new(Vec3::new(-5.0, 4.1, 0.0), Vec3::X), &c, 10.0).is_none());
    assert!(ray::ray_cylinder(&Ray::new(Vec3::new(-5.0, 2.0, 0.0), Vec3::X), &c, 3.9).is_none());
}

#[test]
fn ray_triangle_cases() {
    // Front face +z: (2,0,0) x (1,2,0) = (0,0,4).
    let t = Triangle::new(
        Vec3::new(-1.0, -1.0, 5.0),
        Vec3::new(1.0, -1.0, 5.0),
        Vec3::new(0.0, 1.0, 5.0),
    );
    // From the origin along +z: back face, t = 5, normal toward the ray (-z).
    let h = ray::ray_triangle(&Ray::new(Vec3::ZERO, Vec3::Z), &t, 10.0).unwrap();
    assert_eq!(
        (h.t, h.point, h.normal),
        (5.0, Vec3::new(0.0, 0.0, 5.0), -Vec3::Z)
    );
    // From z = 10 along -z: front face, t = 5, normal +z.
    let h = ray::ray_triangle(&Ray::new(Vec3::new(0.0, 0.0, 10.0), -Vec3::Z), &t, 10.0).unwrap();
    assert_eq!((h.t, h.normal), (5.0, Vec3::Z));
    // Through the edge a..b (y = -1): counts.
    let h = ray::ray_triangle(&Ray::new(Vec3::new(0.0, -1.0, 0.0), Vec3::Z), &t, 10.0).unwrap();
    assert_eq!(h.t, 5.0);
    // Edge-on (in the plane), beside it, beyond max_t: misses.
    assert!(ray::ray_triangle(&Ray::new(Vec3::new(-3.0, 0.0, 5.0), Vec3::X), &t, 10.0).is_none());
    assert!(ray::ray_triangle(&Ray::new(Vec3::new(0.0, -1.1, 0.0), Vec3::Z), &t, 10.0).is_none());
    assert!(ray::ray_triangle(&Ray::new(Vec3::ZERO, Vec3::Z), &t, 4.9).is_none());
}

#[test]
fn ray_aabb_slabs_intervals() {
    let b = Aabb::new(Vec3::new(2.0, -1.0, 0.0), Vec3::new(4.0, 1.0, 3.0));
    let iv = |i: Interval| (i.min, i.max);
    let all = (f32::NEG_INFINITY, f32::INFINITY);
    // From (0, 0, 1) along (2, 1, 0): x slab (2 - 0)/2 = 1 .. (4 - 0)/2 = 2; y slab (-1 - 0)/1 = -1 ..
    // (1 - 0)/1 = 1; z parallel with 1 in [0, 3]: everything. hit = max(1, -1) .. min(2, 1) = [1, 1]:
    // the ray just touches the edge x = 2, y = 1 at (2, 1, 1).
    let tr = ray::ray_aabb_slabs(
        &Ray::new(Vec3::new(0.0, 0.0, 1.0), Vec3::new(2.0, 1.0, 0.0)),
        &b,
    );
    assert_eq!(iv(tr.axes[0]), (1.0, 2.0));
    assert_eq!(iv(tr.axes[1]), (-1.0, 1.0));
    assert_eq!(iv(tr.axes[2]), all);
    assert_eq!(tr.hit.map(iv), Some((1.0, 1.0)));
    // Same ray at z = 5: parallel to the z slab and outside it: empty, so no hit.
    let tr = ray::ray_aabb_slabs(
        &Ray::new(Vec3::new(0.0, 0.0, 5.0), Vec3::new(2.0, 1.0, 0.0)),
        &b,
    );
    assert!(tr.axes[2].min > tr.axes[2].max);
    assert_eq!(tr.hit, None);
    // Negative direction from (5, 0, 1) along -x: x slab (2 - 5)/-1 = 3 and (4 - 5)/-1 = 1, ordered [1, 3];
    // y (0 in [-1, 1]) and z (1 in [0, 3]) parallel and inside. hit [1, 3].
    let tr = ray::ray_aabb_slabs(&Ray::new(Vec3::new(5.0, 0.0, 1.0), -Vec3::X), &b);
    assert_eq!(iv(tr.axes[0]), (1.0, 3.0));
    assert_eq!((iv(tr.axes[1]), iv(tr.axes[2])), (all, all));
    assert_eq!(tr.hit.map(iv), Some((1.0, 3.0)));
    // Origin inside (3, 0, 1) along +x: x slab [-1, 1], clipped to t >= 0: hit [0, 1].
    let tr = ray::ray_aabb_slabs(&Ray::new(Vec3::new(3.0, 0.0, 1.0), Vec3::X), &b);
    assert_eq!(iv(tr.axes[0]), (-1.0, 1.0));
    assert_eq!(tr.hit.map(iv), Some((0.0, 1.0)));
    // Box behind: from (5, 0, 1) along +x: x slab [-3, -1], nothing at t >= 0.
    let tr = ray::ray_aabb_slabs(&Ray::new(Vec3::new(5.0, 0.0, 1.0), Vec3::X), &b);
    assert_eq!(iv(tr.axes[0]), (-3.0, -1.0));
    assert_eq!(tr.hit, None);
    // Parallel exactly on the boundary y = 1: inside (touching counts): everything; hit [2, 4] along x.
    let tr = ray::ray_aabb_slabs(&Ray::new(Vec3::new(0.0, 1.0, 1.0), Vec3::X), &b);
    assert_eq!(iv(tr.axes[1]), all);
    assert_eq!(tr.hit.map(iv), Some((2.0, 4.0)));
    // Parallel just outside it (y = 1.5): empty slab, no hit.
    let tr = ray::ray_aabb_slabs(&Ray::new(Vec3::new(0.0, 1.5, 1.0), Vec3::X), &b);
    assert!(tr.axes[1].min > tr.axes[1].max);
    assert_eq!(tr.hit, None);
}

#[test]
fn ray_obb_slabs_intervals() {
    // tall_box at (10, 0, 0), half extents (2, 1, 1), local x = world y, local y = world -x.
    let b = tall_box(Vec3::new(10.0, 0.0, 0.0));
    let iv = |i: Interval| (i.min, i.max);
    let all = (f32::NEG_INFINITY, f32::INFINITY);
    // Ray from (0, 0.5, 0) along (2, 0, 0). Local origin R^T (o - c) = R^T (-10, 0.5, 0) =
    // (y . (-10, 0.5, 0), -x . (...), z . (...)) = (0.5, 10, 0); local dir R^T (2, 0, 0) = (0, -2, 0).
    // Slab 0 (local x, half 2): parallel, 0.5 in [-2, 2]: everything.
    // Slab 1 (local y, half 1): (-1 - 10)/-2 = 5.5 and (1 - 10)/-2 = 4.5: [4.5, 5.5] (world x = 2t in [9, 11]).
    // Slab 2 (local z, half 1): parallel, 0 in [-1, 1]: everything. hit [4.5, 5.5].
    let tr = ray::ray_obb_slabs(
        &Ray::new(Vec3::new(0.0, 0.5, 0.0), Vec3::new(2.0, 0.0, 0.0)),
        &b,
    );
    assert_eq!(iv(tr.axes[0]), all);
    assert_eq!(iv(tr.axes[1]), (4.5, 5.5));
    assert_eq!(iv(tr.axes[2]), all);
    assert_eq!(tr.hit.map(iv), Some((4.5, 5.5)));
    // At y = 2.5 the local x is 2.5 > 2: parallel and outside slab 0: empty, no hit.
    let tr = ray::ray_obb_slabs(
        &Ray::new(Vec3::new(0.0, 2.5, 0.0), Vec3::new(2.0, 0.0, 0.0)),
        &b,
    );
    assert!(tr.axes[0].min > tr.axes[0].max);
    assert_eq!(tr.hit, None);
    // From above, (10, 5, 0) along -y: local origin (5, 0, 0), local dir (-1, 0, 0):
    // slab 0: (-2 - 5)/-1 = 7 and (2 - 5)/-1 = 3: [3, 7]; slabs 1, 2 parallel inside. hit [3, 7].
    let tr = ray::ray_obb_slabs(&Ray::new(Vec3::new(10.0, 5.0, 0.0), -Vec3::Y), &b);
    assert_eq!(iv(tr.axes[0]), (3.0, 7.0));
    assert_eq!((iv(tr.axes[1]), iv(tr.axes[2])), (all, all));
    assert_eq!(tr.hit.map(iv), Some((3.0, 7.0)));
}

// ============================================================ Segments (5)

#[test]
fn segment_sphere_cases() {
    let s = Sphere::new(Vec3::new(0.0, 1.0, 0.0), 1.0);
    // The x axis from -5 to 5 passes at distance 1: tangent.
    assert!(segment::segment_sphere(
        &Segment::new(Vec3::new(-5.0, 0.0, 0.0), Vec3::new(5.0, 0.0, 0.0)),
        &s
    ));
    // Stopping at x = -2: closest (-2, 0, 0) is sqrt(5) away.
    assert!(!segment::segment_sphere(
        &Segment::new(Vec3::new(-5.0, 0.0, 0.0), Vec3::new(-2.0, 0.0, 0.0)),
        &s
    ));
    // Wholly inside the solid ball.
    assert!(segment::segment_sphere(
        &Segment::new(Vec3::new(0.0, 1.0, 0.0), Vec3::new(0.0, 1.5, 0.0)),
        &s
    ));
}

#[test]
fn segment_aabb_cases() {
    let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
    let seg = |a: Vec3, c: Vec3| segment::segment_aabb(&Segment::new(a, c), &b);
    // Ends on the face x = 0; stops 0.1 short.
    assert!(seg(Vec3::new(-1.0, 0.5, 0.5), Vec3::new(0.0, 0.5, 0.5)));
    assert!(!seg(Vec3::new(-1.0, 0.5, 0.5), Vec3::new(-0.1, 0.5, 0.5)));
    // Wholly inside; passing through.
    assert!(seg(Vec3::new(0.2, 0.5, 0.5), Vec3::new(0.8, 0.5, 0.5)));
    assert!(seg(Vec3::new(-1.0, 0.5, 0.5), Vec3::new(2.0, 0.5, 0.5)));
    // Parallel to x at y = 1.5: outside the y slab.
    assert!(!seg(Vec3::new(-1.0, 1.5, 0.5), Vec3::new(2.0, 1.5, 0.5)));
    // Diagonal through the corner region: (-1, 2, .5) to (2, -1, .5) passes (0.5, 0.5, 0.5)... at x = 0.5
    // y = 0.5: inside.
    assert!(seg(Vec3::new(-1.0, 2.0, 0.5), Vec3::new(2.0, -1.0, 0.5)));
    // (1, 3, .5) to (3, 1, .5): x + y = 4 everywhere, the box has x + y <= 2: apart.
    assert!(!seg(Vec3::new(1.0, 3.0, 0.5), Vec3::new(3.0, 1.0, 0.5)));
}

#[test]
fn segment_obb_cases() {
    // tall_box at the origin: x in [-1, 1], y in [-2, 2].
    let b = tall_box(Vec3::ZERO);
    let seg = |a: Vec3, c: Vec3| segment::segment_obb(&Segment::new(a, c), &b);
    // From (3, 1.5, 0) to (0.5, 1.5, 0): enters at x = 1 with y = 1.5 inside [-2, 2].
    assert!(seg(Vec3::new(3.0, 1.5, 0.0), Vec3::new(0.5, 1.5, 0.0)));
    // Stops at x = 1.5.
    assert!(!seg(Vec3::new(3.0, 1.5, 0.0), Vec3::new(1.5, 1.5, 0.0)));
    // Ends exactly on the top face y = 2.
    assert!(seg(Vec3::new(0.0, 3.0, 0.0), Vec3::new(0.0, 2.0, 0.0)));
    // At y = 2.5 it passes above.
    assert!(!seg(Vec3::new(-3.0, 2.5, 0.0), Vec3::new(3.0, 2.5, 0.0)));
}

#[test]
fn segment_plane_cases() {
    let p = Plane::new(Vec3::Y, 0.0);
    let seg = |a: Vec3, c: Vec3| segment::segment_plane(&Segment::new(a, c), &p);
    assert!(seg(Vec3::new(0.0, 1.0, 0.0), Vec3::new(0.0, -1.0, 0.0)));
    assert!(seg(Vec3::new(0.0, 1.0, 0.0), Vec3::ZERO)); // ends on it
    assert!(!seg(Vec3::new(0.0, 1.0, 0.0), Vec3::new(3.0, 2.0, 0.0)));
    assert!(!seg(Vec3::new(0.0, -1.0, 0.0), Vec3::new(3.0, -0.5, 0.0)));
    assert!(seg(Vec3::ZERO, Vec3::X)); // lies in it
}

#[test]
fn segment_triangle_cases() {
    let t = Triangle::new(
        Vec3::ZERO,
        Vec3::new(2.0, 0.0, 0.0),
        Vec3::new(0.0, 2.0, 0.0),
    );
    let seg = |a: Vec3, c: Vec3| segment::segment_triangle(&Segment::new(a, c), &t);
    // Through (0.5, 0.5, 0): inside.
    assert!(seg(Vec3::new(0.5, 0.5, 1.0), Vec3::new(0.5, 0.5, -1.0)));
    // Stops at z = 0.1.
    assert!(!seg(Vec3::new(0.5, 0.5, 1.0), Vec3::new(0.5, 0.5, 0.1)));
    // Through (1, 1, 0): on the hypotenuse x + y = 2.
    assert!(seg(Vec3::new(1.0, 1.0, 1.0), Vec3::new(1.0, 1.0, -1.0)));
    // Through (1.5, 1.5, 0): x + y = 3 > 2, beside it.
    assert!(!seg(Vec3::new(1.5, 1.5, 1.0), Vec3::new(1.5, 1.5, -1.0)));
    // In the plane, crossing the edge x = 0 at y = 0.5.
    assert!(seg(Vec3::new(-1.0, 0.5, 0.0), Vec3::new(1.0, 0.5, 0.0)));
    // In the plane but away from it.
    assert!(!seg(Vec3::new(3.0, 3.0, 0.0), Vec3::new(4.0, 3.0, 0.0)));
    // Ending on the face.
    assert!(seg(Vec3::new(0.5, 0.5, 1.0), Vec3::new(0.5, 0.5, 0.0)));
}

// ============================================================ Triangles (seeds 000, 001)

#[test]
fn moller_trumbore_cull_back_and_none() {
    // (2,0,0) x (0,2,0) = (0,0,4): front face +z. point = (1-u-v) a + u b + v c = (2u, 2v, 0).
    let t = Triangle::new(
        Vec3::ZERO,
        Vec3::new(2.0, 0.0, 0.0),
        Vec3::new(0.0, 2.0, 0.0),
    );
    let front = Ray::new(Vec3::new(0.5, 0.5, 3.0), -Vec3::Z);
    let back = Ray::new(Vec3::new(0.5, 0.5, -3.0), Vec3::Z);
    // Front face: det = -dir . n = 4 > 0; t = 3, (0.5, 0.5) = (2u, 2v): u = v = 0.25.
    for cull in [Cull::Back, Cull::None] {
        let h = triangle::moller_trumbore(&front, &t, cull).unwrap();
        assert_eq!((h.t, h.u, h.v), (3.0, 0.25, 0.25));
    }
    // Back face: det = -4: Cull::Back rejects, Cull::None gives the same t, u, v.
    assert_eq!(triangle::moller_trumbore(&back, &t, Cull::Back), None);
    let h = triangle::moller_trumbore(&back, &t, Cull::None).unwrap();
    assert_eq!((h.t, h.u, h.v), (3.0, 0.25, 0.25));
    // dir (0, 0, -2): t = 3 / 2 = 1.5 in units of dir.
    let h = triangle::moller_trumbore(
        &Ray::new(Vec3::new(0.5, 0.5, 3.0), Vec3::new(0.0, 0.0, -2.0)),
        &t,
        Cull::Back,
    )
    .unwrap();
    assert_eq!(h.t, 1.5);
    // (1.5, 0.25): u = 0.75, v = 0.125.
    let h = triangle::moller_trumbore(
        &Ray::new(Vec3::new(1.5, 0.25, 3.0), -Vec3::Z),
        &t,
        Cull::Back,
    )
    .unwrap();
    assert_eq!((h.t, h.u, h.v), (3.0, 0.75, 0.125));
    // On the hypotenuse (1, 1): u + v = 1 counts.
    let h = triangle::moller_trumbore(
        &Ray::new(Vec3::new(1.0, 1.0, 3.0), -Vec3::Z),
        &t,
        Cull::Back,
    )
    .unwrap();
    assert_eq!((h.u, h.v), (0.5, 0.5));
    // Beside it (1.5, 1.5): u + v = 1.5 > 1.
    assert!(
        triangle::moller_trumbore(
            &Ray::new(Vec3::new(1.5, 1.5, 3.0), -Vec3::Z),
            &t,
            Cull::None
        )
        .is_none()
    );
    // Pointing away (t would be -3): no hit with either culling.
    let away = Ray::new(Vec3::new(0.5, 0.5, 3.0), Vec3::Z);
    assert!(triangle::moller_trumbore(&away, &t, Cull::None).is_none());
    assert!(triangle::moller_trumbore(&away, &t, Cull::Back).is_none());
    // Parallel to the plane: det = 0.
    let flat = Ray::new(Vec3::new(-1.0, 0.5, 0.0), Vec3::X);
    assert!(triangle::moller_trumbore(&flat, &t, Cull::None).is_none());
}

#[test]
fn point_in_triangle_both_methods() {
    let t = Triangle::new(
        Vec3::ZERO,
        Vec3::new(2.0, 0.0, 0.0),
        Vec3::new(0.0, 2.0, 0.0),
    );
    // (0.5, 0.5): inside. Angles at p: to a (-0.5,-0.5), b (1.5,-0.5), c (-0.5,1.5):
    // cos(a,b) = (-0.75 + 0.25)/(0.7071 * 1.5811) = -0.4472 -> 116.57 deg; cos(b,c) = -1.5/2.5 = -0.6
    // -> 126.87 deg; cos(c,a) = -0.4472 -> 116.57 deg; 116.57 + 126.87 + 116.57 = 360.
    let cases = [
        (Vec3::new(0.5, 0.5, 0.0), true),  // inside
        (Vec3::new(1.0, 1.0, 0.0), true),  // on the hypotenuse
        (Vec3::new(1.0, 0.0, 0.0), true),  // on the edge a..b
        (Vec3::new(2.0, 0.0, 0.0), true),  // vertex b
        (Vec3::new(1.5, 1.0, 0.0), false), // beyond the hypotenuse (x + y = 2.5)
        (Vec3::new(-0.5, 0.5, 0.0), false),
        (Vec3::new(0.5, 0.5, 1.0), false), // above the plane
    ];
    for (p, want) in cases {
        assert_eq!(triangle::point_in_triangle(p, &t), want, "robust at {p}");
        assert_eq!(
            triangle::point_in_triangle_angle_sum(p, &t),
            want,
            "angle sum at {p}"
        );
    }
}

#[test]
fn walk_test_cases() {
    // A wall in z = -5; at height y the wall spans x in [-2 + 2y/3, 2 - 2y/3] (x in [-4/3, 4/3] at y = 1).
    let wall = Triangle::new(
        Vec3::new(-2.0, 0.0, -5.0),
        Vec3::new(2.0, 0.0, -5.0),
        Vec3::new(0.0, 3.0, -5.0),
    );
    // Crossing: from z = -4 to z = -6 the signed distances are +1 and -1 (times |n|): half-way, (0, 1, -5).
    assert_eq!(
        triangle::walk_test(Vec3::new(0.0, 1.0, -4.0), Vec3::new(0.0, 1.0, -6.0), &wall),
        Some(Vec3::new(0.0, 1.0, -5.0))
    );
    // Crossing a quarter of the way: from z = -4.5 to z = -6.5, s = 0.5 / 2 = 0.25.
    assert_eq!(
        triangle::walk_test(Vec3::new(0.5, 1.0, -4.5), Vec3::new(0.5, 1.0, -6.5), &wall),
        Some(Vec3::new(0.5, 1.0, -5.0))
    );
    // Diagonal: from (0, 1, -4) to (1, 1, -6): half-way, at (0.5, 1, -5).
    assert_eq!(
        triangle::walk_test(Vec3::new(0.0, 1.0, -4.0), Vec3::new(1.0, 1.0, -6.0), &wall),
        Some(Vec3::new(0.5, 1.0, -5.0))
    );
    // Ending exactly on the plane (on the triangle): a crossing at the end point.
    assert_eq!(
        triangle::walk_test(Vec3::new(0.0, 1.0, -4.0), Vec3::new(0.0, 1.0, -5.0), &wall),
        Some(Vec3::new(0.0, 1.0, -5.0))
    );
    // Starting on the plane and walking away: not a crossing.
    assert_eq!(
        triangle::walk_test(Vec3::new(0.0, 1.0, -5.0), Vec3::new(0.0, 1.0, -4.0), &wall),
        None
    );
    // Missing beside it: crosses the plane at (3, 1, -5), outside the triangle.
    assert_eq!(
        triangle::walk_test(Vec3::new(3.0, 1.0, -4.0), Vec3::new(3.0, 1.0, -6.0), &wall),
        None
    );
    // Stopping short of the plane; moving within the plane.
    assert_eq!(
        triangle::walk_test(Vec3::new(0.0, 1.0, -3.0), Vec3::new(0.0, 1.0, -4.0), &wall),
        None
    );
    assert_eq!(
        triangle::walk_test(Vec3::new(0.0, 1.0, -5.0), Vec3::new(0.5, 1.0, -5.0), &wall),
        None
    );
    // From behind (both faces count): from z = -6 to z = -4.
    assert_eq!(
        triangle::walk_test(Vec3::new(0.0, 1.0, -6.0), Vec3::new(0.0, 1.0, -4.0), &wall),
        Some(Vec3::new(0.0, 1.0, -5.0))
    );
}

// ============================================================ Closest points (6)

#[test]
fn closest_point_segment() {
    let s = Segment::new(Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0));
    assert_eq!(
        closest::point_segment(Vec3::new(1.0, 3.0, 0.0), &s),
        Vec3::X
    );
    assert_eq!(
        closest::point_segment(Vec3::new(9.0, 1.0, 0.0), &s),
        Vec3::new(4.0, 0.0, 0.0)
    );
    assert_eq!(
        closest::point_segment(Vec3::new(-2.0, 5.0, 0.0), &s),
        Vec3::ZERO
    );
    // Diagonal (0,0,0)..(2,2,0), p = (2, 0, 0): s = p . (2,2,0) / 8 = 4 / 8 = 0.5: (1, 1, 0).
    let d = Segment::new(Vec3::ZERO, Vec3::new(2.0, 2.0, 0.0));
    assert_eq!(
        closest::point_segment(Vec3::new(2.0, 0.0, 0.0), &d),
        Vec3::new(1.0, 1.0, 0.0)
    );
}

#[test]
fn closest_point_aabb() {
    let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
    assert_eq!(
        closest::point_aabb(Vec3::new(2.0, 0.5, -1.0), &b),
        Vec3::new(1.0, 0.5, 0.0)
    );
    assert_eq!(closest::point_aabb(Vec3::splat(-3.0), &b), Vec3::ZERO);
    assert_eq!(
        closest::point_aabb(Vec3::splat(0.25), &b),
        Vec3::splat(0.25)
    );
}

#[test]
fn closest_point_obb() {
    // tall_box at (10, 0, 0): x in [9, 11], y in [-2, 2], z in [-1, 1].
    let b = tall_box(Vec3::new(10.0, 0.0, 0.0));
    // (10, 5, 0): local (5, 0, 0) clamps to (2, 0, 0): world (10, 2, 0).
    assert_close3(
        closest::point_obb(Vec3::new(10.0, 5.0, 0.0), &b),
        Vec3::new(10.0, 2.0, 0.0),
        1e-6,
    );
    // (15, 0, 0): local (0, -5, 0) clamps to (0, -1, 0): world c + (-1)(-x) = (11, 0, 0).
    assert_close3(
        closest::point_obb(Vec3::new(15.0, 0.0, 0.0), &b),
        Vec3::new(11.0, 0.0, 0.0),
        1e-6,
    );
    // (13, 4, 3): clamps on every axis to the corner (11, 2, 1).
    assert_close3(
        closest::point_obb(Vec3::new(13.0, 4.0, 3.0), &b),
        Vec3::new(11.0, 2.0, 1.0),
        1e-6,
    );
    // Inside: itself.
    let p = Vec3::new(10.5, 1.0, 0.5);
    assert_close3(closest::point_obb(p, &b), p, 1e-6);
}

#[test]
fn closest_point_plane() {
    let p = Plane::new(Vec3::Y, 2.0);
    assert_eq!(
        closest::point_plane(Vec3::new(3.0, 7.0, 1.0), &p),
        Vec3::new(3.0, 2.0, 1.0)
    );
    assert_eq!(
        closest::point_plane(Vec3::new(3.0, -1.0, 1.0), &p),
        Vec3::new(3.0, 2.0, 1.0)
    );
    // Non-unit normal (1, 1, 0), d = 2: the plane x + y = 2. From (2, 2, 0): n . p - d = 2, moved back by
    // n * 2 / |n|^2 = (1, 1, 0): (1, 1, 0).
    let q = Plane::new(Vec3::new(1.0, 1.0, 0.0), 2.0);
    assert_close3(
        closest::point_plane(Vec3::new(2.0, 2.0, 0.0), &q),
        Vec3::new(1.0, 1.0, 0.0),
        1e-6,
    );
}

#[test]
fn closest_point_sphere() {
    let s = Sphere::new(Vec3::ZERO, 2.0);
    assert_eq!(
        closest::point_sphere(Vec3::new(0.0, 0.0, 10.0), &s),
        Vec3::new(0.0, 0.0, 2.0)
    );
    // (3, 4, 0) is 5 away: 2/5 of it, (1.2, 1.6, 0).
    assert_close3(
        closest::point_sphere(Vec3::new(3.0, 4.0, 0.0), &s),
        Vec3::new(1.2, 1.6, 0.0),
        1e-6,
    );
    assert_eq!(
        closest::point_sphere(Vec3::new(0.5, 0.0, 0.0), &s),
        Vec3::new(0.5, 0.0, 0.0)
    );
}

#[test]
fn closest_point_triangle() {
    let t = Triangle::new(
        Vec3::ZERO,
        Vec3::new(2.0, 0.0, 0.0),
        Vec3::new(0.0, 2.0, 0.0),
    );
    // Above the interior: straight down.
    assert_eq!(
        closest::point_triangle(Vec3::new(0.5, 0.5, 3.0), &t),
        Vec3::new(0.5, 0.5, 0.0)
    );
    // Beyond the hypotenuse: (1, 1, 0).
    assert_eq!(
        closest::point_triangle(Vec3::new(2.0, 2.0, 0.0), &t),
        Vec3::new(1.0, 1.0, 0.0)
    );
    // Vertex regions: a and b.
    assert_eq!(
        closest::point_triangle(Vec3::new(-1.0, -1.0, 5.0), &t),
        Vec3::ZERO
    );
    assert_eq!(
        closest::point_triangle(Vec3::new(3.0, -1.0, 0.0), &t),
        Vec3::new(2.0, 0.0, 0.0)
    );
    // Edge a..b region: (1, -3, 2) drops to (1, 0, 0).
    assert_eq!(
        closest::point_triangle(Vec3::new(1.0, -3.0, 2.0), &t),
        Vec3::new(1.0, 0.0, 0.0)
    );
}

// ============================================================ SAT (2)

#[test]
fn sat_aabb_obb_axes() {
    let a = Aabb::new(Vec3::splat(-1.0), Vec3::splat(1.0));
    // tall_box at (0, 4.5, 0) spans y in [2.5, 6.5]. Axis 0 (x): a [-1, 1]; b's radius
    // 2 |x . y| + 1 |x . -x| + 1 |x . z| = 1 about 0: [-1, 1], overlap. Axis 1 (y): b's radius
    // 2 |y . y| = 2 about 4.5: [2.5, 6.5] against [-1, 1]: separated, gap 1.5.
    let r = sat::aabb_obb_axes(&a, &tall_box(Vec3::new(0.0, 4.5, 0.0)));
    assert_eq!(r.separating, Some(1));
    let x = &r.axes[0];
    assert_close3(x.axis, Vec3::X, 1e-6);
    assert_eq!((x.a.min, x.a.max, x.b.min, x.b.max), (-1.0, 1.0, -1.0, 1.0));
    let y = &r.axes[1];
    assert_close3(y.axis, Vec3::Y, 1e-6);
    assert_eq!((y.a.min, y.a.max, y.b.min, y.b.max), (-1.0, 1.0, 2.5, 6.5));
    // At (0, 2.5, 0): y interval [0.5, 4.5] overlaps. Every a_i x b_j with parallel axes (x x -x, y x y,
    // z x z) is skipped: 15 - 3 = 12 axes, none separating.
    let r = sat::aabb_obb_axes(&a, &tall_box(Vec3::new(0.0, 2.5, 0.0)));
    assert_eq!(r.separating, None);
    assert_eq!(r.axes.len(), 12);
    for s in &r.axes {
        assert_close(s.axis.length(), 1.0, 1e-6);
        assert!(s.a.min <= s.b.max && s.b.min <= s.a.max);
    }
}

#[test]
fn sat_obb_obb_axes() {
    // a: unit cube turned 45 degrees about z; b: unit cube at (2.5, 0, 0).
    // a's axes (1,1,0)/sqrt2 and (-1,1,0)/sqrt2: b's centre projects to +-1.7678 with radius
    // (1 + 1)/sqrt2 = 1.4142: [0.354, 3.182] and [-3.182, -0.354], both overlapping a's [-1, 1]; z overlaps.
    // b's x axis (index 3): a's radius |cos| + |sin| = 1.4142: [-1.4142, 1.4142] against [1.5, 3.5]: gap.
    let a = Obb::new(
        Vec3::ZERO,
        Vec3::ONE,
        Mat3::from_rotation_z(std::f32::consts::FRAC_PI_4),
    );
    let b = Obb::new(Vec3::new(2.5, 0.0, 0.0), Vec3::ONE, Mat3::IDENTITY);
    let r = sat::obb_obb_axes(&a, &b);
    assert_eq!(r.separating, Some(3));
    let s = &r.axes[3];
    assert_close3(s.axis, Vec3::X, 1e-6);
    let s2 = 2f32.sqrt();
    assert_close(s.a.min, -s2, 1e-5);
    assert_close(s.a.max, s2, 1e-5);
    assert_close(s.b.min, 1.5, 1e-5);
    assert_close(s.b.max, 3.5, 1e-5);
    let s0 = &r.axes[0];
    assert_close3(s0.axis, Vec3::new(1.0, 1.0, 0.0) / s2, 1e-6);
    assert_close(s0.b.min, 2.5 / s2 - s2, 1e-5);
    assert_close(s0.b.max, 2.5 / s2 + s2, 1e-5);
    // Closer (2.4): every axis overlaps. Only a_z x b_z is parallel: 14 axes.
    let r = sat::obb_obb_axes(
        &a,
        &Obb::new(Vec3::new(2.4, 0.0, 0.0), Vec3::ONE, Mat3::IDENTITY),
    );
    assert_eq!(r.separating, None);
    assert_eq!(r.axes.len(), 14);
    // The report agrees with the boolean test.
    assert!(!overlap::obb_obb(&a, &b));
}

// ============================================================ Sweeps (6)

#[test]
fn sweep_sphere_sphere() {
    let a = Sphere::new(Vec3::ZERO, 1.0);
    // Head-on: gap 10 - 2 = 8 closed at 16 per step: t = 0.5; A at 4, B at 6; normal B -> A = -x; point on
    // B's surface (5, 0, 0).
    let b = Sphere::new(Vec3::new(10.0, 0.0, 0.0), 1.0);
    let toi =
        sweep::sphere_sphere(&a, Vec3::new(8.0, 0.0, 0.0), &b, Vec3::new(-8.0, 0.0, 0.0)).unwrap();
    assert_eq!(
        (toi.t, toi.point, toi.normal),
        (0.5, Vec3::new(5.0, 0.0, 0.0), -Vec3::X)
    );
    // Grazing: A at (0, 2, 0) moving +10 in x past B at (5, 0, 0): |(-5 + 10t, 2)| = 2 only at t = 0.5
    // (tangent); normal (0, 2, 0)/2 = +y; point on B (5, 1, 0).
    let toi = sweep::sphere_sphere(
        &Sphere::new(Vec3::new(0.0, 2.0, 0.0), 1.0),
        Vec3::new(10.0, 0.0, 0.0),
        &Sphere::new(Vec3::new(5.0, 0.0, 0.0), 1.0),
        Vec3::ZERO,
    )
    .unwrap();
    assert_close(toi.t, 0.5, 1e-6);
    assert_close3(toi.normal, Vec3::Y, 1e-6);
    assert_close3(toi.point, Vec3::new(5.0, 1.0, 0.0), 1e-6);
    // At 2.01 it passes clear.
    assert!(
        sweep::sphere_sphere(
            &Sphere::new(Vec3::new(0.0, 2.01, 0.0), 1.0),
            Vec3::new(10.0, 0.0, 0.0),
            &Sphere::new(Vec3::new(5.0, 0.0, 0.0), 1.0),
            Vec3::ZERO,
        )
        .is_none()
    );
    // Overlapping at t = 0 (centres 1.5 apart): moving together, t = 0 with normal B -> A = -x and point
    // (1.5 - 1, 0, 0) = (0.5, 0, 0); moving apart, None.
    let near = Sphere::new(Vec3::new(1.5, 0.0, 0.0), 1.0);
    let toi = sweep::sphere_sphere(&a, Vec3::X, &near, Vec3::ZERO).unwrap();
    assert_eq!(
        (toi.t, toi.point, toi.normal),
        (0.0, Vec3::new(0.5, 0.0, 0.0), -Vec3::X)
    );
    assert_eq!(sweep::sphere_sphere(&a, -Vec3::X, &near, Vec3::ZERO), None);
    // Both moving the same way: relative motion zero, still touching: t = 0.
    let toi = sweep::sphere_sphere(&a, Vec3::Y, &near, Vec3::Y).unwrap();
    assert_eq!(toi.t, 0.0);
    // Zero motion: touching (centres 2 apart) gives t = 0; apart (3) gives None.
    let touching = Sphere::new(Vec3::new(2.0, 0.0, 0.0), 1.0);
    let toi = sweep::sphere_sphere(&a, Vec3::ZERO, &touching, Vec3::ZERO).unwrap();
    assert_eq!((toi.t, toi.normal), (0.0, -Vec3::X));
    assert_eq!(
        sweep::sphere_sphere(
            &a,
            Vec3::ZERO,
            &Sphere::new(Vec3::new(3.0, 0.0, 0.0), 1.0),
            Vec3::ZERO
        ),
        None
    );
    // Touching and sliding tangentially (no component along the normal): t = 0.
    let toi = sweep::sphere_sphere(&a, Vec3::Y, &touching, Vec3::ZERO).unwrap();
    assert_eq!(toi.t, 0.0);
    // Too far to reach within the step: gap 8 closed at 4 per step.
    assert_eq!(
        sweep::sphere_sphere(&a, Vec3::new(4.0, 0.0, 0.0), &b, Vec3::ZERO),
        None
    );
}

#[test]
fn sweep_sphere_plane() {
    let floor = Plane::new(Vec3::Y, 0.0);
    // Radius 1 at y = 5 falling 8: bottom reaches y = 0 when the centre is at 1: t = 4 / 8 = 0.5.
    let toi = sweep::sphere_plane(
        &Sphere::new(Vec3::new(0.0, 5.0, 0.0), 1.0),
        Vec3::new(0.0, -8.0, 0.0),
        &floor,
    )
    .unwrap();
    assert_eq!((toi.t, toi.point, toi.normal), (0.5, Vec3::ZERO, Vec3::Y));
    // From below rising 8: t = 0.5, normal from the plane toward the sphere = -y.
    let toi = sweep::sphere_plane(
        &Sphere::new(Vec3::new(0.0, -5.0, 0.0), 1.0),
        Vec3::new(0.0, 8.0, 0.0),
        &floor,
    )
    .unwrap();
    assert_eq!((toi.t, toi.normal), (0.5, -Vec3::Y));
    // Slanted: from (0, 3, 0) by (4, -4, 0): y = 1 at t = 0.5, contact point (2, 0, 0).
    let toi = sweep::sphere_plane(
        &Sphere::new(Vec3::new(0.0, 3.0, 0.0), 1.0),
        Vec3::new(4.0, -4.0, 0.0),
        &floor,
    )
    .unwrap();
    assert_eq!((toi.t, toi.point), (0.5, Vec3::new(2.0, 0.0, 0.0)));
    // Parallel; away; short.
    let s = Sphere::new(Vec3::new(0.0, 5.0, 0.0), 1.0);
    assert_eq!(
        sweep::sphere_plane(&s, Vec3::new(3.0, 0.0, 0.0), &floor),
        None
    );
    assert_eq!(
        sweep::sphere_plane(&s, Vec3::new(0.0, 3.0, 0.0), &floor),
        None
    );
    assert_eq!(
        sweep::sphere_plane(&s, Vec3::new(0.0, -3.0, 0.0), &floor),
        None
    );
    // Resting on it (touching at t = 0): pressing in gives t = 0; lifting off gives None.
    let rest = Sphere::new(Vec3::new(0.0, 1.0, 0.0), 1.0);
    let toi = sweep::sphere_plane(&rest, -Vec3::Y, &floor).unwrap();
    assert_eq!((toi.t, toi.normal), (0.0, Vec3::Y));
    assert_eq!(sweep::sphere_plane(&rest, Vec3::Y, &floor), None);
    // Zero motion: touching gives t = 0; apart gives None.
    assert_eq!(
        sweep::sphere_plane(&rest, Vec3::ZERO, &floor).unwrap().t,
        0.0
    );
    assert_eq!(sweep::sphere_plane(&s, Vec3::ZERO, &floor), None);
}

#[test]
fn sweep_sphere_cylinder() {
    // Upright, radius 1, y from 0 to 4; the moving sphere has radius 0.5.
    let cyl = Cylinder::new(Vec3::ZERO, Vec3::new(0.0, 4.0, 0.0), 1.0);
    // Side: from (-5, 2, 0) by (8, 0, 0): x = -1.5 at t = 3.5 / 8 = 0.4375; normal -x; point (-1, 2, 0).
    let toi = sweep::sphere_cylinder(
        &Sphere::new(Vec3::new(-5.0, 2.0, 0.0), 0.5),
        Vec3::new(8.0, 0.0, 0.0),
        &cyl,
    )
    .unwrap();
    assert_close(toi.t, 0.4375, 1e-5);
    assert_close3(toi.normal, -Vec3::X, 1e-4);
    assert_close3(toi.point, Vec3::new(-1.0, 2.0, 0.0), 1e-4);
    // Cap: from (0, 10, 0) by (0, -8, 0): centre at y = 4.5 at t = 5.5 / 8 = 0.6875; normal +y; point
    // (0, 4, 0).
    let toi = sweep::sphere_cylinder(
        &Sphere::new(Vec3::new(0.0, 10.0, 0.0), 0.5),
        Vec3::new(0.0, -8.0, 0.0),
        &cyl,
    )
    .unwrap();
    assert_close(toi.t, 0.6875, 1e-5);
    assert_close3(toi.normal, Vec3::Y, 1e-4);
    assert_close3(toi.point, Vec3::new(0.0, 4.0, 0.0), 1e-4);
    // Rim: path y = 4.3 from x = -5 by +8: (x + 1)^2 + 0.3^2 = 0.5^2 gives x = -1.4, t = 3.6 / 8 = 0.45;
    // normal (-0.4, 0.3, 0) / 0.5 = (-0.8, 0.6, 0); point (-1, 4, 0).
    let toi = sweep::sphere_cylinder(
        &Sphere::new(Vec3::new(-5.0, 4.3, 0.0), 0.5),
        Vec3::new(8.0, 0.0, 0.0),
        &cyl,
    )
    .unwrap();
    assert_close(toi.t, 0.45, 1e-4);
    assert_close3(toi.normal, Vec3::new(-0.8, 0.6, 0.0), 1e-3);
    assert_close3(toi.point, Vec3::new(-1.0, 4.0, 0.0), 1e-3);
    // Passing 0.6 above the top: no contact.
    assert_eq!(
        sweep::sphere_cylinder(
            &Sphere::new(Vec3::new(-5.0, 4.6, 0.0), 0.5),
            Vec3::new(8.0, 0.0, 0.0),
            &cyl
        ),
        None
    );
}

#[test]
fn sweep_sphere_triangle() {
    // Flat in y = 0, front +y: (5,0,10) x (10,0,0) = (0, 100, 0). Apex (0, 0, 5); edge z = -5 from x = -5
    // to 5.
    let t = Triangle::new(
        Vec3::new(-5.0, 0.0, -5.0),
        Vec3::new(0.0, 0.0, 5.0),
        Vec3::new(5.0, 0.0, -5.0),
    );
    // Face: radius 1 at y = 3 dropping 4: y = 1 at t = 0.5; point (0, 0, 0); normal +y.
    let toi = sweep::sphere_triangle(
        &Sphere::new(Vec3::new(0.0, 3.0, 0.0), 1.0),
        Vec3::new(0.0, -4.0, 0.0),
        &t,
    )
    .unwrap();
    assert_eq!((toi.t, toi.point, toi.normal), (0.5, Vec3::ZERO, Vec3::Y));
    // Back face: from y = -3 rising 4: t = 0.5, normal -y.
    let toi = sweep::sphere_triangle(
        &Sphere::new(Vec3::new(0.0, -3.0, 0.0), 1.0),
        Vec3::new(0.0, 4.0, 0.0),
        &t,
    )
    .unwrap();
    assert_close(toi.t, 0.5, 1e-6);
    assert_close3(toi.normal, -Vec3::Y, 1e-6);
    // Edge: path (0, 0.6, z) from z = -8 by +4: distance to the edge line sqrt(0.36 + (z + 5)^2) = 1 at
    // z = -5.8, t = 2.2 / 4 = 0.55; normal (0, 0.6, -0.8); point (0, 0, -5).
    let toi = sweep::sphere_triangle(
        &Sphere::new(Vec3::new(0.0, 0.6, -8.0), 1.0),
        Vec3::new(0.0, 0.0, 4.0),
        &t,
    )
    .unwrap();
    assert_close(toi.t, 0.55, 1e-5);
    assert_close3(toi.normal, Vec3::new(0.0, 0.6, -0.8), 1e-4);
    assert_close3(toi.point, Vec3::new(0.0, 0.0, -5.0), 1e-4);
    // Vertex: path (0, 0.6, z) from z = 10 by -8: sqrt(0.36 + (z - 5)^2) = 1 at z = 5.8, t = 4.2 / 8 =
    // 0.525; normal (0, 0.6, 0.8); point (0, 0, 5). (Nearest edge point is the apex: the projection of
    // (0, 0.6, 0.8) on the edge direction (5, 0, -10) is -8 < 0.)
    let toi = sweep::sphere_triangle(
        &Sphere::new(Vec3::new(0.0, 0.6, 10.0), 1.0),
        Vec3::new(0.0, 0.0, -8.0),
        &t,
    )
    .unwrap();
    assert_close(toi.t, 0.525, 1e-5);
    assert_close3(toi.normal, Vec3::new(0.0, 0.6, 0.8), 1e-4);
    assert_close3(toi.point, Vec3::new(0.0, 0.0, 5.0), 1e-4);
    // Flying over the whole triangle 1.1 above its plane (radius 1): clear by 0.1.
    assert_eq!(
        sweep::sphere_triangle(
            &Sphere::new(Vec3::new(0.0, 1.1, 10.0), 1.0),
            Vec3::new(0.0, 0.0, -20.0),
            &t
        ),
        None
    );
}

#[test]
fn sweep_sphere_aabb() {
    let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
    // Face: radius 0.5 from (-3, .5, .5) by (4, 0, 0): x = -0.5 at t = 2.5 / 4 = 0.625.
    let toi = sweep::sphere_aabb(
        &Sphere::new(Vec3::new(-3.0, 0.5, 0.5), 0.5),
        Vec3::new(4.0, 0.0, 0.0),
        &b,
    )
    .unwrap();
    assert_eq!(
        (toi.t, toi.point, toi.normal),
        (0.625, Vec3::new(0.0, 0.5, 0.5), -Vec3::X)
    );
    // Edge: path y = 1.3: x^2 + 0.3^2 = 0.25 gives x = -0.4, t = 2.6 / 4 = 0.65; normal (-0.8, 0.6, 0);
    // point (0, 1, 0.5).
    let toi = sweep::sphere_aabb(
        &Sphere::new(Vec3::new(-3.0, 1.3, 0.5), 0.5),
        Vec3::new(4.0, 0.0, 0.0),
        &b,
    )
    .unwrap();
    assert_close(toi.t, 0.65, 1e-5);
    assert_close3(toi.normal, Vec3::new(-0.8, 0.6, 0.0), 1e-4);
    assert_close3(toi.point, Vec3::new(0.0, 1.0, 0.5), 1e-4);
    // Corner: path (x, 1.24, 1.32): x^2 + 0.24^2 + 0.32^2 = x^2 + 0.16 = 0.25 gives x = -0.3,
    // t = 2.7 / 4 = 0.675; normal (-0.3, 0.24, 0.32) / 0.5 = (-0.6, 0.48, 0.64); point (0, 1, 1).
    let toi = sweep::sphere_aabb(
        &Sphere::new(Vec3::new(-3.0, 1.24, 1.32), 0.5),
        Vec3::new(4.0, 0.0, 0.0),
        &b,
    )
    .unwrap();
    assert_close(toi.t, 0.675, 1e-5);
    assert_close3(toi.normal, Vec3::new(-0.6, 0.48, 0.64), 1e-4);
    assert_close3(toi.point, Vec3::new(0.0, 1.0, 1.0), 1e-4);
    // Path (x, 1.4, 1.4) passes sqrt(0.32) = 0.566 > 0.5 from the edge y = z = 1: clear.
    assert_eq!(
        sweep::sphere_aabb(
            &Sphere::new(Vec3::new(-3.0, 1.4, 1.4), 0.5),
            Vec3::new(6.0, 0.0, 0.0),
            &b
        ),
        None
    );
    // Already inside and moving: t = 0.
    assert_eq!(
        sweep::sphere_aabb(&Sphere::new(Vec3::splat(0.5), 0.25), Vec3::X, &b).map(|t| t.t),
        Some(0.0)
    );
}

#[test]
fn sweep_circle_wall() {
    // Wall along x from (0, 0) to (10, 0), collision distance 0.5; circle radius 0.5 (reach 1).
    let wall = Wall::new(Vec2::ZERO, Vec2::new(10.0, 0.0), 0.5);
    // Side: from (5, 4) by (0, -6): z = 1 at t = 3 / 6 = 0.5; point on the outline (5, 0.5); normal +z.
    let toi = sweep::circle_wall(Vec2::new(5.0, 4.0), 0.5, Vec2::new(0.0, -6.0), &wall).unwrap();
    assert_eq!(
        (toi.t, toi.point, toi.normal),
        (0.5, Vec2::new(5.0, 0.5), Vec2::Y)
    );
    // End, head-on: from (14, 0) by (-8, 0): 1 from (10, 0) at x = 11, t = 3 / 8 = 0.375; normal +x;
    // point (10.5, 0).
    let toi = sweep::circle_wall(Vec2::new(14.0, 0.0), 0.5, Vec2::new(-8.0, 0.0), &wall).unwrap();
    assert_close(toi.t, 0.375, 1e-6);
    assert_close2(toi.normal, Vec2::X, 1e-6);
    assert_close2(toi.point, Vec2::new(10.5, 0.0), 1e-5);
    // End, off-centre: from (13, 0.6) by (-8, 0): (x - 10)^2 + 0.36 = 1 at x = 10.8, t = 2.2 / 8 = 0.275;
    // normal (0.8, 0.6); point (10, 0) + 0.5 (0.8, 0.6) = (10.4, 0.3).
    let toi = sweep::circle_wall(Vec2::new(13.0, 0.6), 0.5, Vec2::new(-8.0, 0.0), &wall).unwrap();
    assert_close(toi.t, 0.275, 1e-5);
    assert_close2(toi.normal, Vec2::new(0.8, 0.6), 1e-4);
    assert_close2(toi.point, Vec2::new(10.4, 0.3), 1e-4);
    // A point (radius 0, seed 003's camera) from (5, -4) by (0, 6): z = -0.5 at t = 3.5 / 6; normal -z.
    let toi = sweep::circle_wall(Vec2::new(5.0, -4.0), 0.0, Vec2::new(0.0, 6.0), &wall).unwrap();
    assert_close(toi.t, 3.5 / 6.0, 1e-6);
    assert_close2(toi.normal, -Vec2::Y, 1e-6);
    // Moving away; passing beyond the end.
    assert_eq!(
        sweep::circle_wall(Vec2::new(5.0, 4.0), 0.5, Vec2::new(0.0, 2.0), &wall),
        None
    );
    assert_eq!(
        sweep::circle_wall(Vec2::new(12.0, 4.0), 0.5, Vec2::new(0.0, -8.0), &wall),
        None
    );
}

// ============================================================ Walls

#[test]
fn distance_point_wall_cases() {
    let d = walls::distance_point_wall;
    // Vertical x = 2 from z = 0 to 4: beside (3), past the top end (3), past the bottom end (1).
    let v = Wall::new(Vec2::new(2.0, 0.0), Vec2::new(2.0, 4.0), 0.5);
    assert_eq!(d(Vec2::new(5.0, 1.0), &v), 3.0);
    assert_eq!(d(Vec2::new(2.0, 7.0), &v), 3.0);
    assert_eq!(d(Vec2::new(2.0, -1.0), &v), 1.0);
    // Past the end diagonally: (5, 8) to (2, 4): sqrt(9 + 16) = 5.
    assert_eq!(d(Vec2::new(5.0, 8.0), &v), 5.0);
    // Horizontal z = 0 from x = 0 to 10: below (2), past the left end (-3, 4): 5.
    let h = Wall::new(Vec2::ZERO, Vec2::new(10.0, 0.0), 0.5);
    assert_eq!(d(Vec2::new(3.0, -2.0), &h), 2.0);
    assert_eq!(d(Vec2::new(-3.0, 4.0), &h), 5.0);
    // Diagonal (0,0)..(4,4): from (2, 0) the foot is (1, 1), distance sqrt(2); past the end (6, 6):
    // 2 sqrt(2); behind the start (-3, -4): 5.
    let g = Wall::new(Vec2::ZERO, Vec2::splat(4.0), 0.5);
    assert_close(d(Vec2::new(2.0, 0.0), &g), 2f32.sqrt(), 1e-6);
    assert_close(d(Vec2::splat(6.0), &g), 2.0 * 2f32.sqrt(), 1e-6);
    assert_eq!(d(Vec2::new(-3.0, -4.0), &g), 5.0);
    // On the wall: 0. A post (zero length) at (1, 1): from (4, 5), 5.
    assert_eq!(d(Vec2::new(1.0, 1.0), &g), 0.0);
    assert_eq!(
        d(Vec2::new(4.0, 5.0), &Wall::new(Vec2::ONE, Vec2::ONE, 0.5)),
        5.0
    );
}

#[test]
fn blocked_cases() {
    let ws = [
        Wall::new(Vec2::ZERO, Vec2::new(10.0, 0.0), 0.5),
        Wall::new(Vec2::new(20.0, -5.0), Vec2::new(20.0, 5.0), 1.0),
    ];
    // Exactly at the collision distance: blocked (touching counts); 0.1 further: free.
    assert!(walls::blocked(Vec2::new(3.0, 0.5), &ws));
    assert!(!walls::blocked(Vec2::new(3.0, 0.6), &ws));
    // Round end: (-0.5, 0) is 0.5 from the end (0, 0); (-0.5, 0.0625) is sqrt(0.25 + 0.0039) = 0.504.
    assert!(walls::blocked(Vec2::new(-0.5, 0.0), &ws));
    assert!(!walls::blocked(Vec2::new(-0.5, 0.0625), &ws));
    // The second (vertical) wall with radius 1: x = 19 is 1 away.
    assert!(walls::blocked(Vec2::new(19.0, 3.0), &ws));
    assert!(!walls::blocked(Vec2::new(18.9, 3.0), &ws));
    // No walls: never blocked.
    assert!(!walls::blocked(Vec2::new(3.0, 0.0), &[]));
}

#[test]
fn move_and_slide_cases() {
    // Sliding: wall along z = 0 (radius 0.5), walker radius 0.25 at (0, 1) moving (2, -2). Contact when
    // z = 0.75, after 0.25 of the 2 in z (x = 0.25); the rest's normal component is dropped and the x part
    // (1.75) kept: it ends at x = 2, z = 0.75 + skin (1e-4).
    let w = [Wall::new(Vec2::new(-10.0, 0.0), Vec2::new(10.0, 0.0), 0.5)];
    let end = walls::move_and_slide(Vec2::new(0.0, 1.0), 0.25, Vec2::new(2.0, -2.0), &w);
    assert_close(end.x, 2.0, 1e-3);
    assert!(end.y > 0.75 && end.y < 0.752, "{end}");
    assert!(walls::distance_point_wall(end, &w[0]) > 0.75);
    // Parallel to the wall: unaffected.
    assert_eq!(
        walls::move_and_slide(Vec2::new(0.0, 1.0), 0.25, Vec2::new(5.0, 0.0), &w),
        Vec2::new(5.0, 1.0)
    );
    // Away from it: unaffected.
    assert_eq!(
        walls::move_and_slide(Vec2::new(0.0, 1.0), 0.25, Vec2::new(0.0, 3.0), &w),
        Vec2::new(0.0, 4.0)
    );
    // Corner: walls along x and along z from (0, 0), radius 0.25; walker radius 0.25 from (3, 3) moving
    // (-10, -10): it stops 0.5 (+ skin) from both, at about (0.5, 0.5).
    let corner = [
        Wall::new(Vec2::ZERO, Vec2::new(10.0, 0.0), 0.25),
        Wall::new(Vec2::ZERO, Vec2::new(0.0, 10.0), 0.25),
    ];
    let end = walls::move_and_slide(Vec2::new(3.0, 3.0), 0.25, Vec2::new(-10.0, -10.0), &corner);
    assert_close2(end, Vec2::splat(0.5), 1e-2);
    assert!(walls::distance_point_wall(end, &corner[0]) > 0.5);
    assert!(walls::distance_point_wall(end, &corner[1]) > 0.5);
    // Into the corner at a slant: from (3, 1) moving (-10, -1) it meets the x = 0 wall (reach 0.5) after
    // 2.5 of the 10 in x, at (0.5, 0.75); the rest (-7.5, -0.75) loses its x part and slides down to the
    // z = 0 wall: it stops at about (0.5, 0.5).
    let end = walls::move_and_slide(Vec2::new(3.0, 1.0), 0.25, Vec2::new(-10.0, -1.0), &corner);
    assert_close2(end, Vec2::splat(0.5), 1e-2);
    // A point walker (radius 0) heading straight through a wall stops a skin short of its radius.
    let end = walls::move_and_slide(Vec2::new(5.0, 3.0), 0.0, Vec2::new(0.0, -6.0), &w);
    assert_close2(end, Vec2::new(5.0, 0.5), 1e-3);
    assert!(!walls::blocked(end, &w));
}
