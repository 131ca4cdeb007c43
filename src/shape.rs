//! Plain shape data: every shape is a `Copy` struct with public fields, built with a struct literal or `new`.
//!
//! Shapes carry no invariants of their own: queries check validity (see [`Sphere::is_valid`] and friends) and
//! answer `None` / `false` for an invalid shape instead of panicking.

use glam::{Mat3, Mat3A, Vec2, Vec3, Vec3A, Vec3Swizzles};
use serde::{Deserialize, Serialize};

/// Relative tolerance for a rotation matrix to count as orthonormal (see [`Obb::is_valid`]).
pub const ORTHONORMAL_TOLERANCE: f32 = 1e-3;

/// A half-line: the points `origin + t * dir` for `t >= 0`. `dir` need not be unit; every `t` a query reports
/// is in units of `dir`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ray {
    /// Where the ray starts.
    pub origin: Vec3,
    /// Direction and speed: `t = 1` is at `origin + dir`.
    pub dir: Vec3,
}

impl Ray {
    /// A ray from `origin` along `dir`.
    #[must_use]
    pub const fn new(origin: Vec3, dir: Vec3) -> Self {
        Self { origin, dir }
    }

    /// The point at parameter `t`.
    #[must_use]
    pub fn at(&self, t: f32) -> Vec3 {
        self.origin + self.dir * t
    }

    /// Finite origin and a finite, non-zero direction.
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.origin.is_finite() && self.dir.is_finite() && self.dir != Vec3::ZERO
    }
}

/// A line segment from `a` to `b` (the Cookbook's "Line").
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Segment {
    /// First end point.
    pub a: Vec3,
    /// Second end point.
    pub b: Vec3,
}

impl Segment {
    /// The segment `a..b`.
    #[must_use]
    pub const fn new(a: Vec3, b: Vec3) -> Self {
        Self { a, b }
    }

    /// Finite end points that differ.
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.a.is_finite() && self.b.is_finite() && self.a != self.b
    }

    /// The segment as a ray whose `t` runs from 0 at `a` to 1 at `b`.
    #[must_use]
    pub fn as_ray(&self) -> Ray {
        Ray::new(self.a, self.b - self.a)
    }
}

/// A solid ball.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sphere {
    /// Centre.
    pub center: Vec3,
    /// Radius; must be positive.
    pub radius: f32,
}

impl Sphere {
    /// A sphere of `radius` about `center`.
    #[must_use]
    pub const fn new(center: Vec3, radius: f32) -> Self {
        Self { center, radius }
    }

    /// Finite centre and a finite radius above zero.
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.center.is_finite() && self.radius.is_finite() && self.radius > 0.0
    }
}

/// A solid axis-aligned box.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Aabb {
    /// Minimum corner.
    pub min: Vec3,
    /// Maximum corner.
    pub max: Vec3,
}

impl Aabb {
    /// The box with corners `min` and `max`.
    #[must_use]
    pub const fn new(min: Vec3, max: Vec3) -> Self {
        Self { min, max }
    }

    /// The box of half size `half_extents` about `center`.
    #[must_use]
    pub fn from_center_half_extents(center: Vec3, half_extents: Vec3) -> Self {
        Self::new(center - half_extents, center + half_extents)
    }

    /// Centre of the box.
    #[must_use]
    pub fn center(&self) -> Vec3 {
        // Halve first: min + max can overflow for boxes near f32's range.
        self.min * 0.5 + self.max * 0.5
    }

    /// Half size along each axis.
    #[must_use]
    pub fn half_extents(&self) -> Vec3 {
        self.max * 0.5 - self.min * 0.5
    }

    /// Finite corners with `min <= max` on every axis (flat boxes are valid).
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.min.is_finite() && self.max.is_finite() && self.min.cmple(self.max).all()
    }

    /// The smallest box holding both.
    ///
    /// ```
    /// use collidoscope::{glam::Vec3, shape::Aabb};
    /// let a = Aabb::new(Vec3::ZERO, Vec3::ONE);
    /// let b = Aabb::new(Vec3::new(2.0, -1.0, 0.5), Vec3::new(3.0, 0.5, 0.75));
    /// assert_eq!(a.union(&b), Aabb::new(Vec3::new(0.0, -1.0, 0.0), Vec3::new(3.0, 1.0, 1.0)));
    /// assert_eq!(a.union(&a), a);
    /// ```
    #[must_use]
    pub fn union(&self, other: &Aabb) -> Aabb {
        Aabb::new(self.min.min(other.min), self.max.max(other.max))
    }

    /// The same box as an [`Obb`] with the identity rotation.
    #[must_use]
    pub fn to_obb(&self) -> Obb {
        Obb::new(self.center(), self.half_extents(), Mat3::IDENTITY)
    }
}

/// A solid oriented box.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Obb {
    /// Centre.
    pub center: Vec3,
    /// Half size along each local axis; must be non-negative.
    pub half_extents: Vec3,
    /// The columns are the box's local x, y, z axes in world space; must be orthonormal.
    pub rotation: Mat3,
}

impl Obb {
    /// The box about `center` with `half_extents` along the columns of `rotation`.
    #[must_use]
    pub const fn new(center: Vec3, half_extents: Vec3, rotation: Mat3) -> Self {
        Self {
            center,
            half_extents,
            rotation,
        }
    }

    /// Finite numbers, `half_extents >= 0`, and `rotation` orthonormal within [`ORTHONORMAL_TOLERANCE`]
    /// (a reflection is accepted: it describes the same box).
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.center.is_finite()
            && self.half_extents.is_finite()
            && self.half_extents.cmpge(Vec3::ZERO).all()
            && is_orthonormal(&self.rotation)
    }

    /// A point from box-local coordinates to world space.
    #[must_use]
    pub fn world_from_local(&self, p_local: Vec3) -> Vec3 {
        self.center + self.rotation * p_local
    }

    /// A point from world space to box-local coordinates.
    #[must_use]
    pub fn local_from_world(&self, p_world: Vec3) -> Vec3 {
        self.rotation.transpose() * (p_world - self.center)
    }

    /// The eight corners in world space.
    #[must_use]
    pub fn corners(&self) -> [Vec3; 8] {
        let h = self.half_extents;
        std::array::from_fn(|i| {
            let sx = if i & 1 == 0 { -h.x } else { h.x };
            let sy = if i & 2 == 0 { -h.y } else { h.y };
            let sz = if i & 4 == 0 { -h.z } else { h.z };
            self.world_from_local(Vec3::new(sx, sy, sz))
        })
    }
}

/// Whether the columns of `m` are unit length and mutually perpendicular within [`ORTHONORMAL_TOLERANCE`].
#[must_use]
pub fn is_orthonormal(m: &Mat3) -> bool {
    // All six products at once on SSE registers: with the rows `r_j = (x_j, y_j, z_j)`, lane `i` of
    // `(r0 * r0 + r1 * r1) + r2 * r2` is column `i`'s squared length and, with each row turned to
    // `(y_j, z_j, x_j)`, the lanes are `x·y`, `y·z` and `z·x`: each rounded exactly as `Vec3::dot` rounds it
    // ((a + b) + c). A non-finite entry makes its column's squared length infinite or NaN, which fails.
    let rows = Mat3A::from(*m).transpose();
    let (r0, r1, r2) = (rows.x_axis, rows.y_axis, rows.z_axis);
    let lengths = (r0 * r0 + r1 * r1) + r2 * r2;
    let dots = (r0 * r0.yzx() + r1 * r1.yzx()) + r2 * r2.yzx();
    let tol = Vec3A::splat(ORTHONORMAL_TOLERANCE);
    ((lengths - Vec3A::ONE).abs().cmple(tol) & dots.abs().cmple(tol)).all()
}

/// A plane: the points `x` with `normal.dot(x) == d`.
///
/// `normal` should be unit. A non-unit, non-zero normal still describes the same set of points, and every query
/// treats it so (normalising where it needs a direction or a distance).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Plane {
    /// Unit normal; the positive side is the one it points to.
    pub normal: Vec3,
    /// Signed distance of the plane from the origin along `normal`.
    pub d: f32,
}

impl Plane {
    /// The plane `normal.dot(x) == d`.
    #[must_use]
    pub const fn new(normal: Vec3, d: f32) -> Self {
        Self { normal, d }
    }

    /// The plane through `point` with `normal` (normalised).
    #[must_use]
    pub fn from_point_normal(point: Vec3, normal: Vec3) -> Self {
        let n = normal.normalize_or_zero();
        Self::new(n, n.dot(point))
    }

    /// The plane of a triangle, with the unit normal of its front face (`(b - a).cross(c - a)` normalised).
    ///
    /// A degenerate triangle gives a zero normal, a plane every query rejects; see [`Plane::try_from_triangle`].
    #[must_use]
    pub fn from_triangle(tri: &Triangle) -> Self {
        Self::try_from_triangle(tri).unwrap_or(Self::new(Vec3::ZERO, 0.0))
    }

    /// The plane of a triangle, or `None` when the triangle is invalid (degenerate or not finite).
    #[must_use]
    pub fn try_from_triangle(tri: &Triangle) -> Option<Self> {
        if !tri.is_valid() {
            return None;
        }
        let n = tri.normal_unnormalized().normalize();
        Some(Self::new(n, n.dot(tri.a)))
    }

    /// Finite numbers and a non-zero normal.
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.normal.is_finite() && self.d.is_finite() && self.normal != Vec3::ZERO
    }

    /// Signed distance from the plane to `p`, positive on the side the normal points to (normal need not be
    /// unit).
    #[must_use]
    pub fn signed_distance(&self, p: Vec3) -> f32 {
        let len = self.normal.length();
        (self.normal.dot(p) - self.d) / len
    }
}

/// A triangle. Its front face is the side `(b - a).cross(c - a)` points to.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Triangle {
    /// First vertex.
    pub a: Vec3,
    /// Second vertex.
    pub b: Vec3,
    /// Third vertex.
    pub c: Vec3,
}

/// Smallest ratio of twice the area to the squared longest edge for a triangle to count as non-degenerate.
pub const TRIANGLE_DEGENERACY: f32 = 1e-6;

impl Triangle {
    /// The triangle `a, b, c`.
    #[must_use]
    pub const fn new(a: Vec3, b: Vec3, c: Vec3) -> Self {
        Self { a, b, c }
    }

    /// `(b - a).cross(c - a)`: the front normal scaled by twice the area.
    #[must_use]
    pub fn normal_unnormalized(&self) -> Vec3 {
        (self.b - self.a).cross(self.c - self.a)
    }

    /// The vertices as an array.
    #[must_use]
    pub fn vertices(&self) -> [Vec3; 3] {
        [self.a, self.b, self.c]
    }

    /// Finite vertices and a real area: twice the area is more than [`TRIANGLE_DEGENERACY`] times the squared
    /// longest edge (so slivers whose normal would be mostly rounding count as degenerate), computed in f32 as
    /// every query computes its normal, so a valid triangle always has a finite unit normal (edges longer than
    /// about 1e19, whose f32 cross product overflows, are invalid).
    #[must_use]
    #[inline]
    pub fn is_valid(&self) -> bool {
        let e1 = self.b - self.a;
        let e2 = self.c - self.a;
        let e3 = self.c - self.b;
        let n2 = e1.cross(e2).length_squared();
        let longest = e1
            .length_squared()
            .max(e2.length_squared())
            .max(e3.length_squared());
        // NaN anywhere fails these comparisons; a normal (not subnormal) n2 keeps normalize() exact.
        n2.is_finite() && n2 >= f32::MIN_POSITIVE && n2.sqrt() > TRIANGLE_DEGENERACY * longest
    }
}

/// A finite, capped, solid cylinder with its axis from `a` to `b`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cylinder {
    /// Centre of the first cap.
    pub a: Vec3,
    /// Centre of the second cap.
    pub b: Vec3,
    /// Radius; must be positive.
    pub radius: f32,
}

impl Cylinder {
    /// The cylinder from `a` to `b` with `radius`.
    #[must_use]
    pub const fn new(a: Vec3, b: Vec3, radius: f32) -> Self {
        Self { a, b, radius }
    }

    /// Finite numbers, `a != b` and `radius > 0`.
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.a.is_finite()
            && self.b.is_finite()
            && self.radius.is_finite()
            && self.radius > 0.0
            && self.a != self.b
    }
}

/// A solid capsule: the points within `radius` of the segment `a..b` (`a == b` is a sphere).
///
/// Valid when every number is finite and `radius > 0` (see [`Capsule::is_valid`]); queries answer `None` /
/// `false` for an invalid capsule. A character's body is the upright capsule
/// `CharacterController::capsule` builds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Capsule {
    /// One end of the inner segment (the centre of one end sphere).
    pub a: Vec3,
    /// The other end of the inner segment.
    pub b: Vec3,
    /// Radius about the segment; must be positive.
    pub radius: f32,
}

impl Capsule {
    /// The capsule of `radius` about the segment `a..b`.
    #[must_use]
    pub const fn new(a: Vec3, b: Vec3, radius: f32) -> Self {
        Self { a, b, radius }
    }

    /// Finite numbers and `radius > 0` (`a == b` is valid: a sphere).
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.a.is_finite() && self.b.is_finite() && self.radius.is_finite() && self.radius > 0.0
    }

    /// The inner segment `a..b`.
    #[must_use]
    pub fn segment(&self) -> Segment {
        Segment::new(self.a, self.b)
    }

    /// The same capsule moved by `offset`.
    #[must_use]
    pub fn translated(&self, offset: Vec3) -> Self {
        Self::new(self.a + offset, self.b + offset, self.radius)
    }

    /// The bounding box (not padded).
    #[must_use]
    pub fn bounds(&self) -> Aabb {
        let r = Vec3::splat(self.radius);
        Aabb::new(self.a.min(self.b) - r, self.a.max(self.b) + r)
    }
}

/// A top-down wall: the segment `a..b` on the floor (`Vec2(x, z)`, `y = 0`) with a collision distance.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Wall {
    /// First end, `(x, z)`.
    pub a: Vec2,
    /// Second end, `(x, z)`.
    pub b: Vec2,
    /// Collision distance: a point closer than this to the segment is blocked. Must be non-negative.
    pub radius: f32,
}

impl Wall {
    /// The wall `a..b` with collision distance `radius`.
    #[must_use]
    pub const fn new(a: Vec2, b: Vec2, radius: f32) -> Self {
        Self { a, b, radius }
    }

    /// Finite numbers and `radius >= 0`. A wall with `a == b` is valid: a round post.
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.a.is_finite() && self.b.is_finite() && self.radius.is_finite() && self.radius >= 0.0
    }
}

/// A closed interval of reals, empty when `min > max`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// Lower end.
    pub min: f32,
    /// Upper end.
    pub max: f32,
}

impl Interval {
    /// The empty interval (`+inf..-inf`).
    pub const EMPTY: Self = Self::new(f32::INFINITY, f32::NEG_INFINITY);
    /// The whole real line.
    pub const EVERYTHING: Self = Self::new(f32::NEG_INFINITY, f32::INFINITY);

    /// The interval `min..=max`.
    #[must_use]
    pub const fn new(min: f32, max: f32) -> Self {
        Self { min, max }
    }

    /// Empty when `min > max` (or either end is NaN).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        !(self.min <= self.max)
    }

    /// Whether `x` lies in the interval (ends included).
    #[must_use]
    pub fn contains(&self, x: f32) -> bool {
        self.min <= x && x <= self.max
    }

    /// Whether the two intervals share a point (touching counts).
    #[must_use]
    pub fn overlaps(&self, other: &Self) -> bool {
        !self.is_empty() && !other.is_empty() && self.min <= other.max && other.min <= self.max
    }

    /// The common part (possibly empty).
    #[must_use]
    pub fn intersection(&self, other: &Self) -> Self {
        Self::new(self.min.max(other.min), self.max.min(other.max))
    }

    /// `max - min`, or 0 for an empty interval.
    #[must_use]
    pub fn length(&self) -> f32 {
        if self.is_empty() {
            0.0
        } else {
            self.max - self.min
        }
    }
}
